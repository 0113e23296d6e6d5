#!/bin/sh
# check.sh: the shell completions, installed as `cmake --install` installs
# them, loaded by bash, zsh and fish where Debian's shells look for them.
#
#	check.sh LUAFIND BUILD_DIR WORKDIR CHECK
#
# CHECK: install (into WORKDIR/prefix, for the others: a fixture), bash,
# zsh, fish (each completes -na to -name, a --run name, a script option, a
# -regextype value, -type letters, a user, -hyperlink, -json's fields), or list (the completions' primaries
# are those the parser accepts and --help lists, their -regextype names the
# parser's).  A shell that is missing skips its check (exit 77; a failure
# when CI is set: tools/setup.sh installs them).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../cli/lib.sh"

luafind=${1:?usage: check.sh LUAFIND BUILD_DIR WORKDIR CHECK}
build=${2:?}
work=${3:?}
check=${4:?}
prefix=$work/prefix
share=$prefix/share

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# The luafind the completions run (for --list-scripts, a script's --help):
# this build's, first on the PATH (the link is made by check_install).
PATH=$work/bin:$PATH
export PATH
home=$work/home

need_installed() {
	[ -f "$share/bash-completion/completions/luafind" ] || fail "not installed (the completions.install fixture)"
}

# expect OUTPUT WORD WHAT: OUTPUT has WORD as a word.
expect() {
	printf '%s\n' "$1" | tr ' \t' '\n\n' | grep -qx -- "$2" || fail "$3: no '$2' in: $(printf '%s' "$1" | head -c 400)"
}

check_install() {
	rm -rf "$prefix" "$work/bin"
	mkdir -p "$work/bin"
	ln -s "$luafind" "$work/bin/luafind"
	cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install"
	for f in bash-completion/completions/luafind zsh/vendor-completions/_luafind \
		 fish/vendor_completions.d/luafind.fish; do
		[ -f "$share/$f" ] || fail "share/$f not installed"
	done
	echo "ok: completions installed for bash-completion, zsh and fish"
}

check_bash() {
	need_cmd bash "loading the bash completion"
	need_installed
	f=$share/bash-completion/completions/luafind
	bash -n "$f" || fail "bash -n: syntax error"
	# complete WORD...: the completions of the last word.
	cat >"$work/complete.bash" <<'EOF'
_lf_complete() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_luafind
	printf '%s\n' "${COMPREPLY[@]}"
}
EOF
	# bash-completion's own loader, as an interactive bash uses it, when it
	# is there (Debian's bash-completion package).
	loader=/usr/share/bash-completion/bash_completion
	if [ -f "$loader" ]; then
		out=$(HOME=$home XDG_DATA_DIRS=$share bash --norc --noprofile -c \
			". $loader 2>/dev/null; __load_completion luafind && complete -p luafind" 2>&1) ||
			fail "bash-completion did not load it from XDG_DATA_DIRS: $out"
		expect "$out" _luafind "complete -p luafind"
	elif in_ci; then
		fail "bash-completion is missing, and CI=$CI (tools/setup.sh installs it)"
	fi
	run() {
		HOME=$home bash --norc --noprofile -c ". '$f' && . '$work/complete.bash' && _lf_complete \"\$@\"" bash "$@" 2>&1
	}
	out=$(run luafind -na) || fail "bash: $out"
	[ "$out" = "-name" ] || fail "bash: luafind -na<Tab>: '$out', expected -name"
	out=$(run luafind --run emp) || fail "bash: $out"
	[ "$out" = "empty-dirs" ] || fail "bash: luafind --run emp<Tab>: '$out'"
	expect "$(run luafind --run du --t)" --top "bash: du's options"
	expect "$(run luafind . -regextype posix-e)" posix-extended "bash: -regextype"
	expect "$(run luafind . -type f,)" f,d "bash: -type f,"
	expect "$(run luafind . -user "$(id -un | cut -c1-2)")" "$(id -un)" "bash: -user"
	expect "$(run luafind . -exec ech)" echo "bash: -exec"
	expect "$(run luafind . -exec echo '{}' '')" ';' "bash: -exec's end"
	out=$(run luafind . -xattrname us) || fail "bash: $out"
	[ "$out" = "user." ] || fail "bash: -xattrname us<Tab>: '$out', expected user."
	out=$(run luafind . -size '') || fail "bash: $out"
	[ -z "$out" ] || fail "bash: -size's argument completed as '$out'"
	expect "$(run luafind . -hyperl)" -hyperlink "bash: -hyperlink"
	expect "$(run luafind . --hyperl)" --hyperlink "bash: --hyperlink"
	expect "$(run luafind . -json pa)" path "bash: -json's fields"
	expect "$(run luafind . -json path,si)" path,size "bash: -json's field list"
	expect "$(run luafind . -fjson out.json mt)" mtime "bash: -fjson's fields"
	expect "$(run luafind . -json -pri)" -print "bash: a primary after -json"
	echo "ok: bash loads the completion and completes primaries, arguments and scripts"
}

check_zsh() {
	need_cmd zsh "loading the zsh completion"
	need_cmd python3 "a pseudo-terminal for zsh (python3's pty module)"
	need_installed
	dir=$share/zsh/vendor-completions
	zsh -n "$dir/_luafind" || fail "zsh -n: syntax error"
	out=$(cd "$work" && HOME=$home python3 "$here/zsh_complete.py" "$dir" 'luafind -na' 'luafind --run emp' \
		'luafind --run du --t' 'luafind . -regextype posix-ext' 'luafind . -lua-errors sk' \
		'luafind . -hyperl' 'luafind . -json path,mt' 'luafind . -xattrname sec') ||
		fail "zsh: $out"
	printf '%s\n' "$out" >"$work/zsh.out"
	if grep -qiE 'command not found|parse error|bad (pattern|substitution)|_luafind:[0-9]+:' "$work/zsh.out"; then
		fail "zsh: errors: $(cat "$work/zsh.out")"
	fi
	for want in 'luafind -name' 'luafind --run empty-dirs' 'luafind --run du --top' \
		    'luafind . -regextype posix-extended' 'luafind . -lua-errors skip' 'luafind . -hyperlink' \
		    'luafind . -json path,mtime' 'luafind . -xattrname security.'; do
		grep -qF -- "$want" "$work/zsh.out" || fail "zsh: no '$want' in: $(cat "$work/zsh.out")"
	done
	echo "ok: zsh loads the completion and completes primaries, arguments and scripts"
}

check_fish() {
	need_cmd fish "loading the fish completion"
	need_installed
	fish --no-execute "$share/fish/vendor_completions.d/luafind.fish" || fail "fish --no-execute: syntax error"
	# fish finds vendor completions in $XDG_DATA_DIRS/fish/vendor_completions.d.
	run() {
		HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
			XDG_DATA_DIRS=$share:/usr/share fish -c "complete -C '$1'" 2>&1
	}
	out=$(run 'luafind -na') || fail "fish: $out"
	[ "$out" = "-name" ] || fail "fish: luafind -na<Tab>: '$out', expected -name"
	expect "$(run 'luafind --run emp')" empty-dirs "fish: --run"
	expect "$(run 'luafind --run du --t')" --top "fish: du's options"
	expect "$(run 'luafind . -regextype posix-e')" posix-extended "fish: -regextype"
	expect "$(run 'luafind . -type ')" d "fish: -type"
	expect "$(run 'luafind . -lua-errors ')" skip "fish: -lua-errors"
	expect "$(run 'luafind . -hyperl')" -hyperlink "fish: -hyperlink"
	expect "$(run 'luafind . -json path,si')" path,size "fish: -json's field list"
	expect "$(run 'luafind . -json -pri')" -print "fish: a primary after -json"
	expect "$(run 'luafind . -xattrname us')" user. "fish: -xattrname"
	echo "ok: fish loads the completion and completes primaries, arguments and scripts"
}

# The completions cannot drift from the parser: each primary they offer is
# one the parser knows, each one --help names is offered, and their
# -regextype names are those the parser lists.
check_list() {
	f=$build/completions/luafind.bash
	[ -f "$f" ] || fail "no $f (the completions target)"
	prims=$(sed -n 's/^_luafind_primaries="\(.*\)"$/\1/p' "$f")
	n=0
	for p in $prims; do
		if "$luafind" "$work/nonexistent" "$p" 2>&1 | grep -q 'unknown predicate'; then
			fail "the completions offer $p, which the parser does not know"
		fi
		n=$((n + 1))
	done
	[ $n -ge 80 ] || fail "only $n primaries in the completions"
	for p in $("$luafind" --help | grep -oE '(^|[^-A-Za-z])-[a-z][a-z0-9_-]*' | sed 's/^[^-]//' | sort -u); do
		case " -a -o " in *" $p "*) continue ;; esac
		case " -not -and -or -exclude " in *" $p "*)
			# Operators: offered beside the primaries.
			grep -q -- "-W \"\$_luafind_primaries \$_luafind_options.* $p[ \"]" "$f" ||
				fail "--help names the operator $p, the completions do not offer it"
			continue ;;
		esac
		case " $prims " in *" $p "*) ;; *) fail "--help names $p, the completions do not offer it" ;; esac
	done
	# Every primary the parser knows: names from the sources' tables.
	for d in "$here/../../src/find" "$here/../../src/cli"; do
		for p in $(grep -ho '{"-[A-Za-z0-9_-]*", LF_PRIM_' "$d"/*.c | sed 's/{"\([^"]*\)".*/\1/'); do
			case " $prims " in *" $p "*) ;; *) fail "the parser knows $p, the completions do not offer it" ;; esac
		done
	done
	types=$(sed -n 's/^_luafind_regextypes="\(.*\)"$/\1/p' "$f" | tr ' ' '\n' | sort)
	parser=$("$luafind" . -regextype nosuch 2>&1 | sed -n "s/.*valid types are //p" | tr -d "'." | tr ', ' '\n\n' |
		grep . | sort)
	[ -n "$parser" ] && [ "$types" = "$parser" ] || fail "-regextype names: '$types', the parser's: '$parser'"
	echo "ok: the completions offer the parser's $n primaries and -regextype names"
}

mkdir -p "$work" "$home"
"check_$check"
