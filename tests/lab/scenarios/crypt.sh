# Scenario 5 (guest): disk -> GPT partition -> dm-crypt (LUKS2, aes-xts-plain64) -> ext4, mounted.
# PBKDF2 with the minimum iteration count keeps luksFormat/open fast under TCG (argon2 would
# spend seconds and hundreds of MB); the key strength is irrelevant in a throwaway guest.
must sgdisk -o -n 1:2048:0 -t 1:8309 /dev/sda
must blockdev --rereadpt /dev/sda
printf 'diskdoc-lab' >/tmp/key
must cryptsetup luksFormat --type luks2 --batch-mode --cipher aes-xts-plain64 --key-size 256 \
    --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file /tmp/key /dev/sda1
must cryptsetup open --key-file /tmp/key /dev/sda1 labcrypt
must mkfs.ext4 -q -F /dev/mapper/labcrypt
mkdir -p /mnt/lab
must mount -t ext4 /dev/mapper/labcrypt /mnt/lab
dump_overview
dump_disk sda
dump_disk dm-0
run dmsetup-table.txt dmsetup table
run proc-mounts.txt cat /proc/mounts
diskdoc_all sda --tests layers --quick --budget 2
umount /mnt/lab
cryptsetup close labcrypt
exit 0
