#!/bin/sh
# nodac.sh: run a command without the DAC capabilities when root, so that
# permissions stop it; skipped (77) where capsh cannot drop them, a failure
# when CI is set (tests/cli/lib.sh).
#
#	sh nodac.sh COMMAND [ARG...]
set -u
. "$(dirname "$0")/../cli/lib.sh"
need_nodac "dropping root's DAC capabilities"
run_as --nodac "$@"
