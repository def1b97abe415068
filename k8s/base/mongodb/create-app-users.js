// Creates (or, run again, updates) one user per application database, allowed to read and write
// that database only: APP_DATABASES lists the databases ("crm" in Kubernetes, all four under
// compose) and <DATABASE>_DB_PASSWORD holds each user's password. The user is named like its
// database. Run by mongosh as root: under compose on MongoDB's first start (docker-entrypoint-initdb.d);
// in Kubernetes by each replica set's bootstrap Job on the primary after every apply, so a changed
// DB_PASSWORD reaches the database with the next apply.
const names = (process.env.APP_DATABASES || '').split(/\s+/).filter(Boolean);
if (names.length === 0) throw new Error('APP_DATABASES is empty: no application user to create');
for (const name of names) {
  const variable = `${name.toUpperCase()}_DB_PASSWORD`;
  const pwd = process.env[variable];
  if (!pwd) throw new Error(`${variable} is not set`);
  const database = db.getSiblingDB(name);
  const roles = [{ role: 'readWrite', db: name }];
  if (database.getUser(name)) {
    database.updateUser(name, { pwd, roles });
    print(`updated user ${name}: readWrite on database ${name}`);
  } else {
    database.createUser({ user: name, pwd, roles });
    print(`created user ${name} with readWrite on database ${name}`);
  }
}
