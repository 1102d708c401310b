#!/bin/sh
# Installs what goref needs to build and test on Debian 12 or Raspberry Pi OS
# (bookworm): a C and C++ compiler, CMake, OpenCV 4 (core, imgproc, calib3d),
# libpng and libjpeg-turbo for vision/, libv4l2 for cameras, cmocka for the
# tests, GNU Go as the rules oracle of the tests, cJSON for the JSON goref
# eval reads, clang (its libFuzzer) for the fuzz harnesses of fuzz/;
# libmosquitto and libmicrohttpd for a hall of boards over MQTT (goref watch
# --mqtt, goref hall), with mosquitto (the broker and mosquitto_passwd),
# openssl and curl for its tests, chromium, its driver and python3-selenium
# for the hall page's benchmark. Does nothing when everything is already
# there.
set -e
pkgs="build-essential cmake pkg-config libcmocka-dev gnugo libopencv-core-dev libopencv-imgproc-dev libopencv-calib3d-dev libturbojpeg0-dev libpng-dev libv4l-dev libcjson-dev clang libmosquitto-dev libmicrohttpd-dev mosquitto openssl curl chromium chromium-driver python3-selenium"
missing=""
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing
