# SPDX-License-Identifier: LGPL-2.1-or-later
# bash completion for btrfs-ino(1): commands, their options, and paths.
# shellcheck shell=bash

# _btrfs_ino_columns NAMES...: -o's comma list (findmnt's "+A,B" too): the
# last name completed, the ones before it kept.
_btrfs_ino_columns()
{
	local done='' word=$cur
	if [[ $word == *,* ]]; then
		done=${word%,*},
		word=${word##*,}
	elif [[ $word == +* ]]; then
		done=+
		word=${word#+}
	fi
	mapfile -t COMPREPLY < <(compgen -P "$done" -W "$*" -- "$word")
	compopt -o nospace 2>/dev/null
}

_btrfs_ino()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion || return
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	fi
	# --color=WHEN, whether or not "=" split the word.
	if [[ $cur == --color=* ]]; then
		mapfile -t COMPREPLY < <(compgen -P --color= -W 'auto always never' -- "${cur#--color=}")
		return
	fi
	if [[ $prev == = && ${words[cword - 2]} == --color ]]; then
		mapfile -t COMPREPLY < <(compgen -W 'auto always never' -- "$cur")
		return
	fi

	local commands='walk audit suggest mount exec help'
	local command='' i
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*)
			command=${words[i]}
			break
			;;
		esac
	done

	local opts
	case $command in
	'')
		opts='-h --help -V --version'
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
		fi
		return
		;;
	help)
		mapfile -t COMPREPLY < <(compgen -W "${commands% help}" -- "$cur")
		return
		;;
	walk)
		case $prev in
		--maxdepth | --threads)
			# A number: nothing to offer.
			return
			;;
		-o | --output)
			_btrfs_ino_columns DEV ST_DEV SUBVOLID INO TYPE DEPTH SOURCE FSTYPE \
				MODE NLINK UID GID SIZE MTIME MNT_ID PATH
			return
			;;
		esac
		opts='-J --json -o --output -l --list -r --raw --pairs -n --noheadings
			--stat -0 --print0 -q --quiet --depth --maxdepth --xdev
			--same-subvol --threads -P -H -L --stat-all --no-statx-subvol
			--no-subvol-ioctl -h --help'
		;;
	audit | suggest)
		# The options both take; --format's values differ.
		case $prev in
		--exports | --mountinfo | --etab | --fstab | --output-file)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
			;;
		--client-dir | --output-dir)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			return
			;;
		--server)
			mapfile -t COMPREPLY < <(compgen -A hostname -- "$cur")
			return
			;;
		--format)
			if [[ $command == audit ]]; then
				mapfile -t COMPREPLY < <(compgen -W 'text prometheus' -- "$cur")
			else
				mapfile -t COMPREPLY < <(compgen -W 'server-fstab mount-units exports
					exports-nohide client-fstab autofs snapshot-hook' -- "$cur")
			fi
			return
			;;
		-o | --output)
			_btrfs_ino_columns NAME TYPE ID PARENT OF LOOP HARDLINK PLAIN \
				CLIENT-FS EXPORT DETAILS
			return
			;;
		esac
		if [[ $command == audit ]]; then
			opts='--exports --etab --fstab --mountinfo --nfsv4 -J --json --format --output-file -o --output -l --list
				-r --raw -P --pairs -n --noheadings -v --verbose --color --suggest --ascii --full-tree
				--server --client-dir -q --quiet -h --help'
		else
			opts='--exports --mountinfo --format -J --json --diff --fstab --output-dir --server
				--client-dir -q --quiet -h --help'
		fi
		;;
	mount)
		case $prev in
		--exports)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
			;;
		--max-user-mounts | --max-total-user-mounts)
			# A number: nothing to offer.
			return
			;;
		esac
		opts='-f --dry-run --exports --max-user-mounts --max-total-user-mounts -w --watch -c --client -q --quiet -h --help'
		;;
	exec)
		# Before COMMAND: its options or a command; after: COMMAND's arguments.
		for ((i++; i < cword; i++)); do
			[[ ${words[i]} == -* ]] || { compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return; }
		done
		[[ $cur == -* ]] || { mapfile -t COMPREPLY < <(compgen -c -- "$cur"); return; }
		opts='-h --help'
		;;
	*)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
	else
		# PATH operands: directories and files.
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
} &&
	complete -F _btrfs_ino btrfs-ino
