//! The platform-neutral capture plan: which commands, files and sysctls to capture per disk.
