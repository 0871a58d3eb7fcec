# Scenario 3 (guest): ata_piix, PCI class 0x0101xx, queue depth 1 (no NCQ on PATA).
dump_overview
dump_disk sda
diskdoc_all sda
exit 0
