# lib.sh: helpers of the cleanup scripts' tests (sourced by each NAME.sh).
#
#	sh NAME.sh LUAFIND WORKDIR
#
# Each test builds its trees under WORKDIR (emptied first) and runs there,
# with XDG_DATA_HOME pointing into it (no user script can interfere), the C
# locale, and no progress line.  WORKDIR is removed when the test passes or
# is skipped (exit 77: a tool is missing; a failure when CI is set, see
# tests/cli/lib.sh), kept when it fails.

set -u
luafind=${1:?usage: sh NAME.sh LUAFIND WORKDIR}
work=${2:?usage: sh NAME.sh LUAFIND WORKDIR}
case $luafind in /*) ;; *) luafind=$PWD/$luafind ;; esac
here=$(dirname "$0")
case $here in /*) ;; *) here=$PWD/$here ;; esac
. "$here/../cli/lib.sh"
rm_work "$work"
mkdir -p "$work" && cd "$work" || exit 1
clean_on_success "$work"
export XDG_DATA_HOME="$work/xdg" LC_ALL=C LUAFIND_PROGRESS=never
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

finish() {
	if [ "$fails" -gt 0 ]; then
		echo "$fails check(s) failed" >&2
		exit 1
	fi
	echo ok
	exit 0
}

run() {
	"$luafind" --run "$@"
}

# snapshot TREE: every entry with what any change would touch.
snapshot() {
	find "$1" -printf '%p %y %s %T@ %C@ %m %n %i\n' | sort
}

# minus LIST REMOVED: the lines of LIST that are not in REMOVED, nor below
# a path in REMOVED.
minus() {
	awk 'NR == FNR { gone[$0] = 1; next }
	     { p = $0
	       while (1) {
	         if (p in gone) next
	         i = match(p, /\/[^\/]*$/)
	         if (!i) break
	         p = substr(p, 1, i - 1)
	       }
	       print }' "$2" "$1"
}

# expect_status WANT WHAT STATUS
expect_status() {
	[ "$3" -eq "$1" ] || fail "$2: exit status $3, expected $1"
}

# clean_test SCRIPT TREE EXPECTED [OPTION...]: the dry run changes nothing
# (stat data included) and lists exactly the paths in file EXPECTED; then
# --apply removes exactly those (with everything below them), prints them,
# and leaves every other file as it was.
clean_test() {
	ct_name=$1 ct_tree=$2 ct_exp=$3
	shift 3
	sort "$ct_exp" >ct.expected
	snapshot "$ct_tree" >ct.before
	run "$ct_name" -0 "$@" "$ct_tree" >ct.out 2>ct.err
	expect_status 0 "$ct_name $* (dry run)" $?
	snapshot "$ct_tree" >ct.after
	cmp -s ct.before ct.after || fail "$ct_name $*: the dry run changed the tree:
$(diff ct.before ct.after)"
	tr '\0' '\n' <ct.out | sort >ct.listed
	cmp -s ct.expected ct.listed || fail "$ct_name $*: the dry run listed (diff expected listed):
$(diff ct.expected ct.listed)"
	grep -q "^$ct_name: would remove " ct.err || fail "$ct_name $*: no summary: $(cat ct.err)"

	find "$ct_tree" ! -type d -printf '%p\t%s %T@ %C@ %m %n %i\n' | sort >ct.files.before
	find "$ct_tree" | sort >ct.names.before
	run "$ct_name" -0 --apply "$@" "$ct_tree" >ct.out 2>ct.err
	expect_status 0 "$ct_name --apply $*" $?
	tr '\0' '\n' <ct.out | sort >ct.listed
	cmp -s ct.expected ct.listed || fail "$ct_name --apply $*: printed (diff expected printed):
$(diff ct.expected ct.listed)"
	find "$ct_tree" | sort >ct.names.after
	minus ct.names.before ct.expected >ct.names.expected
	cmp -s ct.names.expected ct.names.after || fail "$ct_name --apply $*: left (diff expected left):
$(diff ct.names.expected ct.names.after)"
	find "$ct_tree" ! -type d -printf '%p\t%s %T@ %C@ %m %n %i\n' | sort >ct.files.after
	awk -F '\t' 'NR == FNR { keep[$1] = 1; next } ($1 in keep)' ct.files.after ct.files.before >ct.files.kept
	cmp -s ct.files.kept ct.files.after || fail "$ct_name --apply $*: files that stay changed:
$(diff ct.files.kept ct.files.after)"
	grep -q "^$ct_name: removed " ct.err || fail "$ct_name --apply $*: no summary: $(cat ct.err)"
}
