# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_diskdoc_global_optspecs
    string join \n list-checks device= yes no-bench quick full-sweep scratch-dir= report= format= json no-redact output= h/help V/version
end

function __fish_diskdoc_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_diskdoc_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_diskdoc_using_subcommand
    set -l cmd (__fish_diskdoc_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c diskdoc -n "__fish_diskdoc_needs_command" -l device -d 'The disk: a name (sda, ada0), a /dev path, a partition, a by-id/by-path link, or a path on a filesystem (the disk under it)' -r
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l scratch-dir -d 'Directory for the write tests\' scratch file (default: current directory); it must be on a filesystem of the disk tested' -r -F
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l report -d 'Save the text report to PATH and the JSON report beside it (PATH.json, or PATH.txt when PATH ends in .json); an existing name gets a new one (-2, -3, ...); `-` prints the text report on standard output' -r -F
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l list-checks -d 'List the checks diskdoc runs and exit (as JSON with --json)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l yes -d 'Accept the safe defaults without asking (never writes to a disk); works without a terminal, e.g. `diskdoc --yes | tee log`'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l no-bench -d 'Skip the read/write tests'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l quick -d 'Shorter tests'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l full-sweep -d 'The block-size sweep reads every power of two from the sector size to 4 MiB, direct and buffered, instead of the sizes a diagnosis needs'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -s V -l version -d 'Print version'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "scan" -d 'Probe and print the facts per disk'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "check" -d 'Probe, run every check and print the ranked findings (no read/write tests)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "replay" -d 'Re-derive facts and findings from any diskdoc JSON report or evidence bundle'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "bench" -d 'Run the read/write tests'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "explain" -d 'Diagnose from pasted tool outputs (files, or standard input)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "compare" -d 'Compare two reports (before/after a change)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "summarize" -d 'One table of hosts x findings from many reports or bundles (files or directories)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, elvish, powershell)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "manpage" -d 'Print the manual page (roff; docs/diskdoc.1 is this output)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "schema" -d 'Print the JSON Schema of every JSON report (docs/report.schema.json)'
complete -c diskdoc -n "__fish_diskdoc_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand scan" -l device -d 'The disk: a name (sda, ada0), a /dev path, a partition, a by-id/by-path link, or a path on a filesystem (the disk under it)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand scan" -l evidence-out -d 'Also write the evidence bundle to FILE' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand scan" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_using_subcommand scan" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand scan" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand scan" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand check" -l device -d 'The disk: a name (sda, ada0), a /dev path, a partition, a by-id/by-path link, or a path on a filesystem (the disk under it)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand check" -l evidence-out -d 'Also write the evidence bundle to FILE' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand check" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_using_subcommand check" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand check" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand check" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand replay" -l device -d 'Show only this disk (a name as in the report)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand replay" -l max-input-mib -d 'Read at most this many MiB of input in total (default 64)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand replay" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_using_subcommand replay" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand replay" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand replay" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l device -d 'The disk: a name (sda, ada0), a /dev path, a partition, a by-id/by-path link, or a path on a filesystem (the disk under it)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l tests -d 'Tests to run: all, read, write (comma separated: seq,sweep,rand,write,sync,layers); `sustained` (opt-in) writes until the time budget to find a write-cache cliff' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l scratch-dir -d 'Directory for the write tests\' scratch file (default: current directory)' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l budget -d 'Time budget per test, seconds (more than 0; default: each test\'s own budget)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l destructive -d 'Destructive raw-device write test on DEVICE (asks you to type its path); without a value, on the --device named. With --preset cdm: the preset\'s four writes, on the device itself' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l evidence-out -d 'Also write the evidence bundle (with results) to FILE' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l preset -d 'Test set: cdm (CrystalDiskMark\'s SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write), quick, default' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l export -d '`--export fio FILE`: write the fio job file of the tests run (cdm preset)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l quick -d 'Shorter tests'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l full-sweep -d 'The block-size sweep reads every power of two from the sector size to 4 MiB, direct and buffered, instead of the sizes a diagnosis needs'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l time-based -d 'Run every test for its whole budget instead of stopping once the estimate is stable (like fio\'s --time_based): for side-by-side comparisons of equal length'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l allow-busy-siblings -d 'With --destructive on a partition: write even though another partition of the same disk (or the disk itself) is mounted or held'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand bench" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand explain" -l max-input-mib -d 'Read at most this many MiB of input in total (default 64)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand explain" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_using_subcommand explain" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand explain" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand explain" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand compare" -l max-input-mib -d 'Read at most this many MiB of input in total (default 64)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand compare" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_using_subcommand compare" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand compare" -l force -d 'Compare even when the two reports cover no common disk (otherwise exit status 2)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand compare" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand compare" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand summarize" -l max-input-mib -d 'Read at most this many MiB of input in total (default 64)' -r
complete -c diskdoc -n "__fish_diskdoc_using_subcommand summarize" -l format -d 'Output format' -r -f -a "text\t'For people: the console form of the command (replay: the text report)'
markdown\t'For forums and issue trackers'
json\t'The versioned report envelope (docs/report-format.md), redacted unless --no-redact'
prometheus\t'Prometheus text exposition for node_exporter\'s textfile collector: one `diskdoc_finding` series per finding, per-disk gauges, bench results; redacted unless --no-redact (no serial labels)'
html\t'One self-contained HTML page (inline CSS and SVG, no script): the findings with their evidence and fixes, and charts of the test results; redacted unless --no-redact'"
complete -c diskdoc -n "__fish_diskdoc_using_subcommand summarize" -l output -d 'Write the output to FILE instead of standard output, atomically (a temporary file in the same directory renamed over FILE, as node_exporter\'s textfile collector requires). With --format markdown, the report\'s charts are written beside FILE as SVG files (FILE\'s name, a number and the chart\'s kind) and linked from it' -r -F
complete -c diskdoc -n "__fish_diskdoc_using_subcommand summarize" -l json -d 'Exactly --format json'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand summarize" -l no-redact -d 'Keep serial numbers, WWNs, host names and user names in the output'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand summarize" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand completions" -s h -l help -d 'Print help'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand manpage" -s h -l help -d 'Print help'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "scan" -d 'Probe and print the facts per disk'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "check" -d 'Probe, run every check and print the ranked findings (no read/write tests)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "replay" -d 'Re-derive facts and findings from any diskdoc JSON report or evidence bundle'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "bench" -d 'Run the read/write tests'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "explain" -d 'Diagnose from pasted tool outputs (files, or standard input)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "compare" -d 'Compare two reports (before/after a change)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "summarize" -d 'One table of hosts x findings from many reports or bundles (files or directories)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, elvish, powershell)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "manpage" -d 'Print the manual page (roff; docs/diskdoc.1 is this output)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "schema" -d 'Print the JSON Schema of every JSON report (docs/report.schema.json)'
complete -c diskdoc -n "__fish_diskdoc_using_subcommand help; and not __fish_seen_subcommand_from scan check replay bench explain compare summarize completions manpage schema help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
