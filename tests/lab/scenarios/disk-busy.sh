# Issue 17 (guest): one long dd (4 KiB direct reads, about a minute for the disk) runs while
# diskdoc bench starts; the busy sample before the tests must find the disk busy and name dd.
# (A loop of short dd runs would be named after the shell: a reaped child's I/O counts to its
# parent's /proc/PID/io.)
dump_overview
dd if=/dev/vda of=/dev/null bs=4k iflag=direct 2>/dev/null &
HAMMER=$!
sleep 2
LAB_PREFIX=vda/
rm -f /tmp/evidence.json
run bench.json diskdoc bench --json --device vda --tests seq --quick --budget 1 \
    --evidence-out /tmp/evidence.json
[ -f /tmp/evidence.json ] && emit evidence.json /tmp/evidence.json -
kill "$HAMMER" 2>/dev/null
exit 0
