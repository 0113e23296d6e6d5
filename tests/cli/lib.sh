# lib.sh: helpers shared by the differential test scripts (sourced).

# run [--nodac] CMD...: run CMD, with the DAC capabilities dropped if asked,
# so that mode-000 directories stop even root.
run_as() {
	if [ "$1" = --nodac ]; then
		shift
		capsh --drop=cap_dac_override,cap_dac_read_search -- -c 'exec "$0" "$@"' "$@"
	else
		shift
		"$@"
	fi
}

# normalize_err FILE...: make find's and luafind's messages comparable: one
# program name, and without luafind's own additions (typo suggestions, the
# command line with a caret under the bad argument).
normalize_err() {
	sed -i -e 's/^[^:]*find: /luafind: /' -e '/^luafind: did you mean /d' \
	       -e '/^luafind:  /d' -e '/^ *\^~*$/d' "$@"
}
