# Scenario 1 (guest): AHCI, 1.5 Gbps link, NCQ 32, write cache on, 512e HDD.
dump_overview
dump_disk sda
diskdoc_all sda --tests seq --quick --budget 2
exit 0
