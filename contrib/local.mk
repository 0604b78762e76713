# contrib/: systemd unit, Icinga 2 and Nagios configuration
