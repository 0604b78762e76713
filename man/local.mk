# SPDX-License-Identifier: ISC
# man/: the manual pages, in mdoc. The checks are in section 1: ordinary
# commands that any user may run, needing no privileges (see each page).
dist_man1_MANS = man/check_bufcache.1 man/check_dblock.1 man/check_disklatency.1
dist_man5_MANS = man/tunewatchd.conf.5
dist_man7_MANS = man/TUNEWATCH-MIB.7
dist_man8_MANS = man/tunewatchd.8
