#!/usr/bin/env bash
# Rebuilds the built-in model (models/builtin/) from scratch; pass --smoke for the CI-sized run.
# Needs Debian's python3 with python3-torch and python3-numpy (apt-get install -y python3-torch).
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 -m training.build "$@"
