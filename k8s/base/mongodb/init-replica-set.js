// Initiates a replica set once: run by mongosh as root, connected directly to its first member
// (directConnection=true), by the bootstrap Job after every apply. REPLICA_SET names the set and
// MEMBERS lists its members' host:port, comma-separated, in StatefulSet order. Already initiated:
// nothing changes (members are added or removed with rs.reconfig by hand, k8s/README.md). Then waits
// until the set has a primary, so the users are created on it next.
const setName = process.env.REPLICA_SET;
const members = (process.env.MEMBERS || '').split(',').filter(Boolean);
if (!setName) throw new Error('REPLICA_SET is not set');
if (members.length === 0 || members.length % 2 === 0) throw new Error(`MEMBERS must list an odd number of members, got "${process.env.MEMBERS || ''}"`);
const waitSeconds = Number(process.env.WAIT_SECONDS || 300);

function currentConfig() {
  try {
    return rs.conf();
  } catch (err) {
    if (err.codeName === 'NotYetInitialized' || err.code === 94) return undefined;
    throw err;
  }
}

const config = currentConfig();
if (config === undefined) {
  rs.initiate({ _id: setName, members: members.map((host, id) => ({ _id: id, host })) });
  print(`initiated replica set ${setName} with ${members.join(', ')}`);
} else if (config._id !== setName) {
  throw new Error(`this server belongs to replica set ${config._id}, not ${setName}`);
} else {
  print(`replica set ${setName} already initiated (${config.members.map((m) => m.host).join(', ')})`);
}

for (let waited = 0; ; waited += 1) {
  const primary = db.hello().primary;
  if (primary) {
    print(`primary: ${primary}`);
    break;
  }
  if (waited >= waitSeconds) throw new Error(`replica set ${setName} has no primary after ${waitSeconds} s`);
  sleep(1000);
}
