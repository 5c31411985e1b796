#!/bin/sh
# Starts GNOME Klotski on one level with private settings, on $DISPLAY, in
# its own D-Bus session, never touching the user's settings or scores:
#   DISPLAY=:N tests/common/gnome-klotski.sh DIR LEVEL [WIDTH HEIGHT]
# DIR (created) holds the game's config, data (solved flags, scores) and
# cache; LEVEL is GNOME's level index 0-27 (0 Only 18 Steps ... 27
# Sunshine); WIDTH HEIGHT the window's size (default 600 500; big levels
# get bigger cells in a bigger window). The script becomes dbus-run-session
# (exec), so killing its process group ends the game, its D-Bus daemon and
# the portals it starts. Used by tests/common/klotski.rs and the benches.
set -eu
if [ $# -lt 2 ]; then
  echo "usage: DISPLAY=:N $0 DIR LEVEL [WIDTH HEIGHT]" >&2
  exit 2
fi
dir=$1
level=$2
width=${3:-600}
height=${4:-500}
game=$(command -v gnome-klotski || echo /usr/games/gnome-klotski)
if [ ! -x "$game" ]; then
  echo "gnome-klotski is not installed (.ci/deps installs it)" >&2
  exit 3
fi
mkdir -p "$dir/config/glib-2.0/settings" "$dir/data" "$dir/cache"
# GSETTINGS_BACKEND=keyfile reads $XDG_CONFIG_HOME/glib-2.0/settings/keyfile;
# the group is the schema's path without its outer slashes.
printf '[org/gnome/Klotski]\nlevel=%d\nwindow-width=%d\nwindow-height=%d\nwindow-is-maximized=false\n' \
  "$level" "$width" "$height" >"$dir/config/glib-2.0/settings/keyfile"
export XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" XDG_CACHE_HOME="$dir/cache"
export GSETTINGS_BACKEND=keyfile NO_AT_BRIDGE=1
# One D-Bus session per game: GNOME Klotski is a unique GApplication, and a
# second one on a shared bus would only raise the first.
unset DBUS_SESSION_BUS_ADDRESS
exec dbus-run-session -- "$game"
