#!/bin/sh
# Installs what goref needs to build and test on Debian 12 or Raspberry Pi OS
# (bookworm): a C and C++ compiler, CMake, OpenCV 4 (core, imgproc, calib3d),
# libpng and libjpeg-turbo for vision/, libv4l2 for cameras, cmocka for the
# tests, GNU Go as the rules oracle of the tests, cJSON for the JSON goref
# eval reads, clang (its libFuzzer) for the fuzz harnesses of fuzz/, GNU
# time and libjpeg-turbo's cjpeg/djpeg for samples/bench_memory.sh,
# libmicrohttpd for the referee's web page and the hall's page, headless
# Chromium with its driver and Selenium for the page's test in a real
# browser; libmosquitto for a hall of boards over MQTT (goref watch --mqtt,
# goref hall), with mosquitto (the broker and mosquitto_passwd) and openssl
# for its tests. Does nothing when everything is already there.
set -e
pkgs="build-essential cmake pkg-config libcmocka-dev gnugo libopencv-core-dev libopencv-imgproc-dev libopencv-calib3d-dev libturbojpeg0-dev libpng-dev libv4l-dev libcjson-dev clang time libjpeg-turbo-progs libmicrohttpd-dev chromium chromium-driver python3-selenium curl libmosquitto-dev mosquitto openssl"
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
