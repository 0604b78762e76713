# contrib/: quickstart and test runner, systemd unit, Icinga 2 and Nagios configuration
EXTRA_DIST += \
	contrib/install-deps contrib/run-tests contrib/quickstart \
	contrib/tunewatchd.service contrib/tunewatchd.conf
EXTRA_DIST += contrib/icinga2/tunewatch.conf contrib/nagios/tunewatch.cfg
