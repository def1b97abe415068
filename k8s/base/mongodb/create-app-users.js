// Runs once, when MongoDB first starts on an empty data volume (docker-entrypoint-initdb.d, as
// root). Creates one user per application database, allowed to read and write that database only:
// APP_DATABASES lists the databases ("crm" in Kubernetes, all four under compose) and
// <DATABASE>_DB_PASSWORD holds each user's password. The user is named like its database.
const names = (process.env.APP_DATABASES || '').split(/\s+/).filter(Boolean);
if (names.length === 0) throw new Error('APP_DATABASES is empty: no application user to create');
for (const name of names) {
  const variable = `${name.toUpperCase()}_DB_PASSWORD`;
  const pwd = process.env[variable];
  if (!pwd) throw new Error(`${variable} is not set`);
  db.getSiblingDB(name).createUser({ user: name, pwd, roles: [{ role: 'readWrite', db: name }] });
  print(`created user ${name} with readWrite on database ${name}`);
}
