# SPDX-License-Identifier: ISC
# contrib/: quickstart and test runner, systemd unit, example tunewatchd.conf,
# Icinga 2 and Nagios configuration.
EXTRA_DIST += \
	contrib/install-deps contrib/run-tests contrib/quickstart \
	contrib/test-debian contrib/tunewatchd.service.in

# debian/: the packaging, so that a release tarball builds them too.
EXTRA_DIST += \
	debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format \
	debian/tunewatchd.install debian/tunewatchd.postinst \
	debian/tunewatchd.README.Debian debian/tunewatchd.lintian-overrides \
	debian/monitoring-plugins-tunewatch.install \
	debian/monitoring-plugins-tunewatch.lintian-overrides

# ---- What make install puts where ----------------------------------------
# The documentation the unit's Documentation= line and the man pages name.
dist_doc_DATA = README.md MIB-README

# Icinga 2 and Nagios definitions are examples to include or copy, not
# configuration that takes effect on its own: data, not sysconfdir.
icinga2dir = $(pkgdatadir)/icinga2
dist_icinga2_DATA = contrib/icinga2/tunewatch.conf contrib/icinga2/README.cluster.md
nagiosdir = $(pkgdatadir)/nagios
dist_nagios_DATA = contrib/nagios/tunewatch.cfg
# Receiving tunewatchd's notifications: snmptt's event definitions and an
# snmptrapd.conf with the traphandle that feeds them; examples too.
snmpttdir = $(pkgdatadir)/snmptt
dist_snmptt_DATA = contrib/snmptt/tunewatch.conf
snmptrapddir = $(pkgdatadir)/snmptrapd
dist_snmptrapd_DATA = contrib/snmptrapd/snmptrapd.conf
# The notification command that turns a check's output into ticket bodies,
# with its Icinga 2 and Nagios definitions beside it.
notifydir = $(pkgdatadir)/notify
dist_notify_SCRIPTS = contrib/notify/tunewatch-ticket contrib/notify/tunewatch-rt \
	contrib/notify/tunewatch-alertmanager
dist_notify_DATA = contrib/notify/tunewatch-ticket.conf contrib/notify/tunewatch-ticket.cfg \
	contrib/notify/tunewatch-rt.conf contrib/notify/tunewatch-rt.initialdata \
	contrib/notify/tunewatch_changes.py

# The Zabbix 6.0 template, and snmptt's events worded for Zabbix's SNMP
# trapper.
zabbixdir = $(pkgdatadir)/zabbix
dist_zabbix_DATA = contrib/zabbix/tunewatch_template.yaml contrib/zabbix/tunewatch-snmptt.conf

# snmp_exporter's generator.yml, the snmp.yml generated from it (Debian
# ships no IETF MIB modules to generate it with), Prometheus' rules and the
# scrape job that makes a histogram of twReqHistTable.
prometheusdir = $(pkgdatadir)/prometheus
dist_prometheus_DATA = contrib/prometheus/generator.yml contrib/prometheus/snmp.yml \
	contrib/prometheus/tunewatch.rules.yml contrib/prometheus/prometheus.yml

# The unit names tunewatchd where this build installs it; substituted at
# make time, as the Autoconf manual advises for installation directories.
if HAVE_SYSTEMD
systemdsystemunit_DATA = contrib/tunewatchd.service
endif
CLEANFILES += contrib/tunewatchd.service
contrib/tunewatchd.service: $(top_srcdir)/contrib/tunewatchd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@docdir[@]|$(docdir)|g' $(top_srcdir)/contrib/tunewatchd.service.in > $@.tmp && \
	mv $@.tmp $@

# systemd's pkg-config value is an absolute path outside distcheck's
# prefix; keep distcheck's install inside it.
AM_DISTCHECK_CONFIGURE_FLAGS = --with-systemdsystemunitdir='$${prefix}/lib/systemd/system'

# The example tunewatchd.conf goes beside snmpd.conf, where Net-SNMP's
# configuration path finds it, but never over one an administrator has
# already written; uninstall removes it only while it is still ours.
confexampledir = $(sysconfdir)/snmp
EXTRA_DIST += contrib/tunewatchd.conf
install-data-hook: install-conf-example
uninstall-hook: uninstall-conf-example
install-conf-example:
	$(MKDIR_P) '$(DESTDIR)$(confexampledir)'
	@if test -e '$(DESTDIR)$(confexampledir)/tunewatchd.conf'; then \
		echo "keeping $(DESTDIR)$(confexampledir)/tunewatchd.conf (an existing one is never replaced)"; \
	else \
		echo " $(INSTALL_DATA) $(srcdir)/contrib/tunewatchd.conf '$(DESTDIR)$(confexampledir)/tunewatchd.conf'"; \
		$(INSTALL_DATA) $(srcdir)/contrib/tunewatchd.conf '$(DESTDIR)$(confexampledir)/tunewatchd.conf'; \
	fi
uninstall-conf-example:
	@if cmp -s $(srcdir)/contrib/tunewatchd.conf '$(DESTDIR)$(confexampledir)/tunewatchd.conf'; then \
		echo " rm -f '$(DESTDIR)$(confexampledir)/tunewatchd.conf'"; \
		rm -f '$(DESTDIR)$(confexampledir)/tunewatchd.conf'; \
	fi
.PHONY: install-conf-example uninstall-conf-example
