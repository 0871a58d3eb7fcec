# Scenario 7 (guest): reads covering the blkdebug sectors fail with EIO; diskdoc bench must
# report read-errors with the failing offset and exit without a panic. A plain dd over the first
# band proves the fault is live (its exit status and the kernel log are kept).
run dd-4MiB.txt dd if=/dev/sda of=/dev/null bs=65536 skip=64 count=1 iflag=direct
dump_overview
diskdoc_all sda --tests seq --quick --budget 3
exit 0
