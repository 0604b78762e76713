#!/bin/sh
# SPDX-License-Identifier: ISC
# Regenerate the build system from configure.ac and the Makefile.am files.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --force --install --warnings=all
echo "Now run ./configure && make && make check"
