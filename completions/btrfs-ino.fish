# SPDX-License-Identifier: LGPL-2.1-or-later
# fish completion for btrfs-ino(1): commands, their options, and paths.

set -l commands walk audit suggest mount exec help

complete -c btrfs-ino -f
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -s h -l help -d 'Show help and exit'
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -s V -l version -d 'Show the version and exit'
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -a walk -d 'List entries with their true identity'
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -a audit -d 'What NFS clients see and which tools break'
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -a suggest -d 'Server and client configuration that makes exports safe'
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -a mount -d 'Mount the subvolumes below exports on their own paths'
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -a exec -d 'Run a command that sees NFS-served subvolumes apart'
complete -c btrfs-ino -n "not __fish_seen_subcommand_from $commands" -a help -d 'Describe a command'
complete -c btrfs-ino -n '__fish_seen_subcommand_from help' -a 'walk audit suggest mount exec'

# __btrfs_ino_columns NAME...: -o's comma list ("A,B", findmnt's "+A,B"):
# the names so far, then each name.
function __btrfs_ino_columns
    set -l token (commandline -ct)
    set -l done (string match -r '^.*[,+]' -- $token)
    for name in $argv
        printf '%s%s\n' "$done" $name
    end
end

# walk [OPTION]... PATH...
set -l walk '__fish_seen_subcommand_from walk'
complete -c btrfs-ino -n $walk -F
complete -c btrfs-ino -n $walk -s J -l json -d 'JSON Lines: one object per entry, loop or error'
complete -c btrfs-ino -n $walk -s o -l output -x -a '(__btrfs_ino_columns DEV ST_DEV SUBVOLID INO TYPE DEPTH SOURCE FSTYPE MODE NLINK UID GID SIZE MTIME MNT_ID PATH)' -d 'A table of these columns'
complete -c btrfs-ino -n $walk -s l -l list -d 'A table with aligned columns'
complete -c btrfs-ino -n $walk -s r -l raw -d 'A raw table'
complete -c btrfs-ino -n $walk -l pairs -d 'A table of NAME="value" pairs'
complete -c btrfs-ino -n $walk -s n -l noheadings -d 'A table without headings'
complete -c btrfs-ino -n $walk -l stat -d 'Add mode, nlink, uid, gid, size, times, mount ID'
complete -c btrfs-ino -n $walk -s 0 -l print0 -d 'Print only paths, each followed by NUL'
complete -c btrfs-ino -n $walk -s q -l quiet -d 'Do not report errors and loops on stderr'
complete -c btrfs-ino -n $walk -l depth -d 'List directories after their contents'
complete -c btrfs-ino -n $walk -l maxdepth -x -d 'Descend at most N levels below PATH'
complete -c btrfs-ino -n $walk -l xdev -d 'Do not descend into other mounts'
complete -c btrfs-ino -n $walk -l same-subvol -d 'Do not descend into other subvolumes'
complete -c btrfs-ino -n $walk -l threads -x -d 'Read directories ahead with N-1 helper threads'
complete -c btrfs-ino -n $walk -s P -d 'Never follow symbolic links'
complete -c btrfs-ino -n $walk -s H -d 'Follow symbolic links given as PATH'
complete -c btrfs-ino -n $walk -s L -d 'Follow all symbolic links'
complete -c btrfs-ino -n $walk -l stat-all -d 'Stat every entry instead of trusting readdir'
complete -c btrfs-ino -n $walk -l no-statx-subvol -d 'Do not use statx STATX_SUBVOL'
complete -c btrfs-ino -n $walk -l no-subvol-ioctl -d 'Do not use the btrfs ioctl either'
complete -c btrfs-ino -n $walk -s h -l help -d 'Show help and exit'

# audit [OPTION]... [PATH]...
set -l audit '__fish_seen_subcommand_from audit'
complete -c btrfs-ino -n $audit -F
complete -c btrfs-ino -n $audit -l exports -r -F -d 'Use this exports(5) file'
complete -c btrfs-ino -n $audit -l etab -r -F -d 'Audit this etab instead of /var/lib/nfs/etab'
complete -c btrfs-ino -n $audit -l fstab -r -F -d 'Check this server fstab'
complete -c btrfs-ino -n $audit -l mountinfo -r -F -d 'The server mount table (mountinfo format)'
complete -c btrfs-ino -n $audit -l nfsv4 -d 'Model NFSv4 clients'
complete -c btrfs-ino -n $audit -s J -l json -d 'One JSON document'
complete -c btrfs-ino -n $audit -l format -x -a 'text prometheus' -d 'Text or node_exporter metrics'
complete -c btrfs-ino -n $audit -l output-file -r -F -d 'Write the output to this file, whole, never through a link'
complete -c btrfs-ino -n $audit -s o -l output -x -a '(__btrfs_ino_columns NAME TYPE ID PARENT OF LOOP HARDLINK PLAIN CLIENT-FS EXPORT DETAILS)' -d 'The table columns'
complete -c btrfs-ino -n $audit -s l -l list -d 'The table as a list, not a tree'
complete -c btrfs-ino -n $audit -s r -l raw -d 'The table only, raw'
complete -c btrfs-ino -n $audit -s P -l pairs -d 'The table only, as NAME="value" pairs'
complete -c btrfs-ino -n $audit -s n -l noheadings -d 'No column headings'
complete -c btrfs-ino -n $audit -s v -l verbose -d 'The details and example paths of each path'
complete -c btrfs-ino -n $audit -l color -d 'Colour the output (--color=auto, always or never)'
complete -c btrfs-ino -n "$audit; and string match -q -- '--color=*' (commandline -ct)" -a '--color=auto --color=always --color=never' -d 'When to colour'
complete -c btrfs-ino -n $audit -l suggest -d 'Append what suggest prints for each unsafe export'
complete -c btrfs-ino -n $audit -l ascii -d 'Draw the tree with ASCII characters'
complete -c btrfs-ino -n $audit -l full-tree -d 'List every snapshot in the tree'
complete -c btrfs-ino -n $audit -l server -x -a '(__fish_print_hostnames)' -d 'With --suggest: the server name in client lines'
complete -c btrfs-ino -n $audit -l client-dir -x -a '(__fish_complete_directories)' -d 'With --suggest: where clients mount PATH'
complete -c btrfs-ino -n $audit -s q -l quiet -d 'No progress on stderr'
complete -c btrfs-ino -n $audit -s h -l help -d 'Show help and exit'

# suggest [OPTION]... [PATH]...
set -l suggest '__fish_seen_subcommand_from suggest'
complete -c btrfs-ino -n $suggest -F
complete -c btrfs-ino -n $suggest -l exports -r -F -d 'Use this exports(5) file'
complete -c btrfs-ino -n $suggest -l mountinfo -r -F -d 'The server mount table (mountinfo format)'
complete -c btrfs-ino -n $suggest -l format -x -a 'server-fstab mount-units exports exports-nohide client-fstab autofs snapshot-hook' -d 'Print only one block'
complete -c btrfs-ino -n $suggest -s J -l json -d 'One JSON document with every block'
complete -c btrfs-ino -n $suggest -l diff -d 'Unified diffs of the exports files and the server fstab'
complete -c btrfs-ino -n $suggest -l fstab -r -F -d 'With --diff: the server fstab to diff'
complete -c btrfs-ino -n $suggest -l output-dir -x -a '(__fish_complete_directories)' -d 'Write the mount units into this directory'
complete -c btrfs-ino -n $suggest -l server -x -a '(__fish_print_hostnames)' -d 'The server name in client lines'
complete -c btrfs-ino -n $suggest -l client-dir -x -a '(__fish_complete_directories)' -d 'Where clients mount PATH'
complete -c btrfs-ino -n $suggest -s q -l quiet -d 'No progress on stderr'
complete -c btrfs-ino -n $suggest -s h -l help -d 'Show help and exit'

# mount [OPTION]... [PATH]...  or  mount [--watch] --client DIR...
set -l mount '__fish_seen_subcommand_from mount'
complete -c btrfs-ino -n $mount -F
complete -c btrfs-ino -n $mount -s f -l dry-run -d 'Print what would be done; change nothing'
complete -c btrfs-ino -n $mount -l exports -r -F -d 'Use this exports(5) file'
complete -c btrfs-ino -n $mount -l max-user-mounts -x -d 'Mount at most N subvolumes of each owner other than root'
complete -c btrfs-ino -n $mount -l max-total-user-mounts -x -d 'Mount at most N subvolumes of all owners but root together'
complete -c btrfs-ino -n $mount -s w -l watch -d 'Keep running: do it again on any change'
complete -c btrfs-ino -n $mount -s c -l client -d 'On an NFS client: mount the server mounts below each DIR'
complete -c btrfs-ino -n $mount -s q -l quiet -d 'No progress on stderr'
complete -c btrfs-ino -n $mount -s h -l help -d 'Show help and exit'

# exec [--] COMMAND [ARG]...
set -l exec '__fish_seen_subcommand_from exec'
complete -c btrfs-ino -n $exec -s h -l help -d 'Show help and exit'
complete -c btrfs-ino -n $exec -x -a '(__fish_complete_subcommand --fcs-skip=2)'
