# CMake toolchain file: cross-build goref for 64-bit ARM Linux (Raspberry Pi
# 4/5 with 64-bit Raspberry Pi OS, i.e. Debian 12 arm64) from a Debian x86_64
# host with Debian's cross compilers (gcc-aarch64-linux-gnu,
# g++-aarch64-linux-gnu), and run the tests there under qemu-user.
#
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-arm64 -j2 && ctest --test-dir build-arm64
#
# Where the arm64 libraries come from, two ways:
# - Debian multiarch (default): dpkg --add-architecture arm64 and
#   libcmocka-dev:arm64 etc. installed on the host; found in
#   /usr/lib/aarch64-linux-gnu, the C library in /usr/aarch64-linux-gnu.
#   Debian 12's arm64 OpenCV cannot be installed beside the amd64 one
#   (libgdal32 is not Multi-Arch: same), so there use -DGOREF_VISION=OFF.
# - A sysroot: an arm64 Debian tree (as .ci/cross-arm64 makes with
#   mmdebstrap --variant=extract), given as -DGOREF_ARM64_SYSROOT=DIR or the
#   environment variable of that name. Everything, libc included, is taken
#   from there; the whole program (vision/ with OpenCV) builds.
#
# CMAKE_CROSSCOMPILING_EMULATOR makes ctest run every test program that is a
# CMake target under qemu-aarch64 -L <sysroot>.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(GOREF_ARM64_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${GOREF_ARM64_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${GOREF_ARM64_TRIPLE}-g++)

if(NOT DEFINED GOREF_ARM64_SYSROOT AND DEFINED ENV{GOREF_ARM64_SYSROOT})
  set(GOREF_ARM64_SYSROOT "$ENV{GOREF_ARM64_SYSROOT}")
endif()
# try_compile() projects read this toolchain file again: pass the choice on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES GOREF_ARM64_SYSROOT)

if(GOREF_ARM64_SYSROOT)
  set(CMAKE_SYSROOT "${GOREF_ARM64_SYSROOT}")
  set(CMAKE_FIND_ROOT_PATH "${GOREF_ARM64_SYSROOT}")
  set(GOREF_ARM64_QEMU_PREFIX "${GOREF_ARM64_SYSROOT}")
else()
  # Multiarch: the cross libc lives in /usr/aarch64-linux-gnu, the arm64
  # packages in /usr/lib/aarch64-linux-gnu and /usr/include (searched below
  # through the "/" root: find_library adds the aarch64-linux-gnu subfolder
  # by CMAKE_LIBRARY_ARCHITECTURE).
  set(CMAKE_FIND_ROOT_PATH /usr/${GOREF_ARM64_TRIPLE} /)
  set(CMAKE_LIBRARY_ARCHITECTURE ${GOREF_ARM64_TRIPLE})
  set(GOREF_ARM64_QEMU_PREFIX /usr/${GOREF_ARM64_TRIPLE})
endif()

# Programs (compilers, bash, qemu) from the host; libraries, headers and
# packages only from the target roots.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(GOREF_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(GOREF_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${GOREF_QEMU_AARCH64};-L;${GOREF_ARM64_QEMU_PREFIX}")
endif()

# pkg-config (pkg_check_modules) must read the arm64 .pc files, not the host's.
if(GOREF_ARM64_SYSROOT)
  set(ENV{PKG_CONFIG_SYSROOT_DIR} "${GOREF_ARM64_SYSROOT}")
  set(ENV{PKG_CONFIG_LIBDIR} "${GOREF_ARM64_SYSROOT}/usr/lib/${GOREF_ARM64_TRIPLE}/pkgconfig:${GOREF_ARM64_SYSROOT}/usr/share/pkgconfig")
else()
  set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${GOREF_ARM64_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
endif()
unset(ENV{PKG_CONFIG_PATH})
