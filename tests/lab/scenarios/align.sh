# Scenario 4 (guest): an MBR partition at sector 63 on a 512e disk (63*512 = 32256 bytes, 3584
# bytes past a 4096-byte physical sector: the kernel's alignment_offset is 512), then a GPT
# partition at sector 2048 (1 MiB, aligned). Sections of the two phases: mbr63/..., gpt2048/...
LAB_PREFIX=mbr63/
printf 'label: dos\nstart=63, size=262144, type=83\n' >/tmp/mbr.sfdisk
must sfdisk -q --no-reread --no-tell-kernel /dev/sda </tmp/mbr.sfdisk
# No udev here: make the kernel re-read the table itself.
must blockdev --rereadpt /dev/sda
dump_overview
dump_disk sda
diskdoc_all sda

LAB_PREFIX=gpt2048/
must sgdisk -Z /dev/sda
must sgdisk -o -n 1:2048:+128M -t 1:8300 /dev/sda
must blockdev --rereadpt /dev/sda
dump_overview
dump_disk sda
diskdoc_all sda
exit 0
