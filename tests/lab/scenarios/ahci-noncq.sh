# Scenario 3b (guest): NCQ supported by the drive, disabled by libata.force=noncq.
dump_overview
dump_disk sda
diskdoc_all sda
exit 0
