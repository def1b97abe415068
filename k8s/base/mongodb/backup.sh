#!/bin/sh
# One backup of one application database: `mongodump --archive --gzip` into BACKUP_DIR (a
# persistent volume), as <DATABASE>-<UTC time>.archive.gz, then keeps the newest BACKUP_KEEP
# archives and deletes the older ones. Run by each replica set's backup CronJob.
#   MONGO_URI    the replica set's URL with the database and the app user (readPreference=secondaryPreferred)
#   DATABASE     the database name, the archives' prefix
#   BACKUP_DIR   where archives go; BACKUP_KEEP  how many to keep (at least 1)
# A failed dump leaves no archive behind and deletes nothing.
set -eu
: "${MONGO_URI:?MONGO_URI is not set}" "${DATABASE:?DATABASE is not set}" "${BACKUP_DIR:?BACKUP_DIR is not set}" "${BACKUP_KEEP:?BACKUP_KEEP is not set}"
case "$BACKUP_KEEP" in '' | *[!0-9]* | 0) echo "BACKUP_KEEP must be a whole number of at least 1, got \"$BACKUP_KEEP\"" >&2; exit 2 ;; esac

archive="$BACKUP_DIR/$DATABASE-$(date -u +%Y%m%dT%H%M%SZ).archive.gz"
partial="$archive.partial"
trap 'rm -f "$partial"' EXIT
mongodump --uri="$MONGO_URI" --archive="$partial" --gzip
mv "$partial" "$archive"
echo "backup written: $archive ($(wc -c <"$archive") bytes)"

# The names sort by time; everything after the newest BACKUP_KEEP goes.
ls -1 "$BACKUP_DIR" | grep -E "^$DATABASE-[0-9]{8}T[0-9]{6}Z\.archive\.gz\$" | sort -r | tail -n "+$((BACKUP_KEEP + 1))" | while read -r old; do
  rm -f "$BACKUP_DIR/$old"
  echo "backup deleted (retention $BACKUP_KEEP): $old"
done
