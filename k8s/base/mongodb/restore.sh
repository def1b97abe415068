#!/bin/sh
# Restores one application database from an archive of backup.sh: `mongorestore --archive --gzip
# --drop`, only the namespaces of DATABASE (each collection is replaced by the archive's copy).
# Run by the restore Job of k8s/mongodb-restore.
#   MONGO_URI   the replica set's URL with the database and the app user
#   DATABASE    the database name; ARCHIVE  a file name in BACKUP_DIR, or "latest"
set -eu
: "${MONGO_URI:?MONGO_URI is not set}" "${DATABASE:?DATABASE is not set}" "${BACKUP_DIR:?BACKUP_DIR is not set}" "${ARCHIVE:?ARCHIVE is not set}"

if [ "$ARCHIVE" = latest ]; then
  ARCHIVE="$(ls -1 "$BACKUP_DIR" | grep -E "^$DATABASE-[0-9]{8}T[0-9]{6}Z\.archive\.gz\$" | sort -r | head -n 1)"
  [ -n "$ARCHIVE" ] || { echo "no archive of $DATABASE in $BACKUP_DIR" >&2; exit 1; }
fi
case "$ARCHIVE" in
  */* | .*) echo "ARCHIVE must be a file name in $BACKUP_DIR, got \"$ARCHIVE\"" >&2; exit 2 ;;
esac
[ -f "$BACKUP_DIR/$ARCHIVE" ] || { echo "no archive $ARCHIVE in $BACKUP_DIR" >&2; exit 1; }

echo "restoring $DATABASE from $ARCHIVE"
mongorestore --uri="$MONGO_URI" --archive="$BACKUP_DIR/$ARCHIVE" --gzip --drop --nsInclude="$DATABASE.*"
echo "restored $DATABASE from $ARCHIVE"
