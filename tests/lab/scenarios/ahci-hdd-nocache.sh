# Scenario 2 (guest): write cache off shows as cache_type "write through".
dump_overview
dump_disk sda
diskdoc_all sda
exit 0
