#!/bin/sh
# Installs the Debian packages the build and the tests need, and only those that are missing:
# each library is looked up with pkg-config and each command on PATH, and only the packages
# behind the missing ones are asked of apt. A machine whose Node.js comes from elsewhere (a
# repack that bundles npm) is left alone as long as `npm` runs.
#
#   scripts/deps.sh           install what is missing (says what first)
#   scripts/deps.sh --print   print the apt-get command line it would run, install nothing
#   scripts/deps.sh --fuzz    the same for the fuzzing toolchain only: clang whose libFuzzer
#                             runtime links (clang, libclang-rt-dev), for `make test`/`make fuzz`
#   scripts/deps.sh --have-fuzzer   exit 0 when $FUZZ_CC (clang) builds a libFuzzer target
#
# The print mode is what the tests use, with PATH and PKG_CONFIG_PATH hiding pieces (and
# DEPS_INCLUDE_DIR, default /usr/include, where header-only libraries are looked for).
set -u

print_only=0
[ "${1:-}" = "--print" ] && print_only=1

# have_fuzzer: can ${FUZZ_CC:-clang} build and link a libFuzzer target with the sanitizers?
have_fuzzer() {
  cc=${FUZZ_CC:-clang}
  command -v "$cc" >/dev/null 2>&1 || return 1
  d=$(mktemp -d) || return 1
  printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return d && n; }\n' > "$d/probe.c"
  "$cc" -fsanitize=fuzzer,address,undefined "$d/probe.c" -o "$d/probe" >/dev/null 2>&1
  rc=$?
  rm -rf "$d"
  return $rc
}
if [ "${1:-}" = "--have-fuzzer" ]; then have_fuzzer; exit $?; fi

# pkg-config module -> Debian package
libs="jansson:libjansson-dev libgit2:libgit2-dev libpcre2-8:libpcre2-dev libuv:libuv1-dev tree-sitter:libtree-sitter-dev"
# command -> Debian package (pre-commit: the hook test runs the real one)
cmds="cc:build-essential g++:g++ make:make pkg-config:pkg-config git:git python3:python3 valgrind:valgrind pre-commit:pre-commit"

need=
add() { case " $need " in *" $1 "*) ;; *) need="$need $1" ;; esac; }

if [ "${1:-}" = "--fuzz" ]; then
  # Debian's clang provides libFuzzer in libclang-rt-dev (not installed without recommends).
  have_fuzzer && exit 0
  cmds="" libs=""
  add clang
  add libclang-rt-dev
fi

for pair in $cmds; do
  c=${pair%%:*} p=${pair#*:}
  command -v "$c" >/dev/null 2>&1 || add "$p"
done
# Node.js: a working npm is all that is needed, wherever it came from. Only without one are
# Debian's packages asked for (npm, and nodejs when there is no node either): on a machine
# whose Node.js is a third-party repack bundling npm, apt's nodejs/npm would conflict with it.
if ! command -v npm >/dev/null 2>&1; then
  command -v node >/dev/null 2>&1 || add nodejs
  add npm
fi
# Without pkg-config every library counts as missing (it is being installed above).
for pair in $libs; do
  m=${pair%%:*} p=${pair#*:}
  if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$m" 2>/dev/null; then
    add "$p"
  fi
done
# Header-only libraries have no pkg-config file: their header is looked for instead.
headers="cpptoml.h:libcpptoml-dev"
for pair in $headers; do
  h=${pair%%:*} p=${pair#*:}
  [ -f "${DEPS_INCLUDE_DIR:-/usr/include}/$h" ] || add "$p"
done
need=${need# }

if [ -z "$need" ]; then
  [ $print_only = 1 ] && echo "nothing to install"
  exit 0
fi

if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
line="${SUDO:+$SUDO }apt-get install -y -qq --no-install-recommends $need"
if [ $print_only = 1 ]; then
  echo "$line"
  exit 0
fi
echo "installing missing Debian packages: $need"
$SUDO apt-get update -qq || { echo "error: apt-get update failed" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive $line >/dev/null || {
  echo "error: could not install: $need" >&2
  echo "  (install them by hand, or make the libraries visible to pkg-config)" >&2
  exit 1
}
