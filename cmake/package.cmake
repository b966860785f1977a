# SPDX-License-Identifier: MIT
# The Debian package: `cmake --preset package && cmake --build --preset package --target package`
# writes build/package/perflab_<version>_<arch>.deb from the install rules.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME perflab)
set(CPACK_PACKAGE_VENDOR PerfLab)
set(CPACK_PACKAGE_CONTACT "PerfLab maintainers <maintainers@users.noreply.a-seed-0babee26.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends is what dpkg-shlibdeps finds the binary linked against: runtime libraries only.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# memcached for the Quick start and `perflab demo`, ssh for probing hosts and agents, the GTK
# theme so the window follows the desktop's light or dark theme.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "memcached, openssh-client, qt6-gtk-platformtheme")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "load tests for caches and HTTP services, with every run kept")
# CPack writes the summary as Description's first line and indents these lines under it.
set(CPACK_PACKAGE_DESCRIPTION "PerfLab is a desktop performance lab for memcached and HTTP services: configure a
load run, watch throughput, hit rate, latency percentiles and the hosts under test
live, and keep every run with its spec, samples, histograms and hardware profiles
to compare runs side by side and export report-ready charts.

The same engine runs headless from the command line (perflab run spec.json).")
include(CPack)
