# scripts/deps.sh installs only what is missing. Each case builds a machine out of a fake PATH
# (stub commands: present means on PATH) and a fake pkg-config search path (a .pc file per
# library present; the real pkg-config reads it, the system's own are hidden) and a fake include
# directory (header-only libraries: their header present), then checks the
# apt-get command line `deps.sh --print` computes — among them the Debian 12 machine whose
# Node.js is a third-party repack bundling npm, where asking apt for nodejs/npm breaks — and
# what `make deps` really runs, through a stub apt-get that records its arguments.
. "$ROOT/tests/lib.sh"
cd "$TMPD"

ALL_CMDS="cc g++ make git python3 valgrind pre-commit node npm"
ALL_LIBS="jansson libgit2 libpcre2-8 libuv tree-sitter"
PKGCONFIG=$(command -v pkg-config)

# machine NAME UID "COMMANDS" "LIBRARIES" [HEADERS]: a fake PATH in NAME/bin (sh, id printing
# UID, a stub per command, pkg-config when listed), NAME/pc holding a .pc file per library and
# NAME/include holding each header (default: cpptoml.h, the one header-only library).
machine() {
  rm -rf "$1"; mkdir -p "$1/bin" "$1/pc" "$1/include"
  for h in ${5-cpptoml.h}; do : > "$1/include/$h"; done
  ln -s "$(command -v sh)" "$1/bin/sh"
  printf '#!/bin/sh\necho %s\n' "$2" > "$1/bin/id"
  for c in $3; do
    if [ "$c" = pkg-config ]; then ln -s "$PKGCONFIG" "$1/bin/pkg-config"
    else printf '#!/bin/sh\nexit 0\n' > "$1/bin/$c"; fi
  done
  chmod +x "$1"/bin/*
  for l in $4; do
    printf 'Name: %s\nDescription: stand-in\nVersion: 1.0\n' "$l" > "$1/pc/$l.pc"
  done
}
# deps_print NAME: what deps.sh --print says on that machine.
deps_print() {
  PATH="$TMPD/$1/bin" PKG_CONFIG_LIBDIR="$TMPD/$1/pc" PKG_CONFIG_PATH= \
    DEPS_INCLUDE_DIR="$TMPD/$1/include" "$TMPD/$1/bin/sh" "$ROOT/scripts/deps.sh" --print
}

machine full 0 "$ALL_CMDS pkg-config" "$ALL_LIBS"
expect_eq everything-present "$(deps_print full)" "nothing to install"

# Debian 12 with a third-party Node.js (node and npm from the repack, nothing else yet)
machine thirdparty 0 "node npm" "" ""
expect_eq third-party-node-no-nodejs-or-npm "$(deps_print thirdparty)" \
  "apt-get install -y -qq --no-install-recommends build-essential g++ make pkg-config git python3 valgrind pre-commit libjansson-dev libgit2-dev libpcre2-dev libuv1-dev libtree-sitter-dev libcpptoml-dev"

machine bare 0 "" "" ""
expect_eq bare-machine-everything "$(deps_print bare)" \
  "apt-get install -y -qq --no-install-recommends build-essential g++ make pkg-config git python3 valgrind pre-commit nodejs npm libjansson-dev libgit2-dev libpcre2-dev libuv1-dev libtree-sitter-dev libcpptoml-dev"

machine noheader 0 "$ALL_CMDS pkg-config" "$ALL_LIBS" ""
expect_eq header-only-library-missing "$(deps_print noheader)" \
  "apt-get install -y -qq --no-install-recommends libcpptoml-dev"

machine nonpm 0 "cc g++ make git python3 valgrind pre-commit node pkg-config" "$ALL_LIBS"
expect_eq node-without-npm-only-npm "$(deps_print nonpm)" \
  "apt-get install -y -qq --no-install-recommends npm"

machine onelib 0 "$ALL_CMDS pkg-config" "jansson libgit2 libpcre2-8 tree-sitter"
expect_eq one-library-missing "$(deps_print onelib)" \
  "apt-get install -y -qq --no-install-recommends libuv1-dev"

machine user 1000 "$ALL_CMDS pkg-config" "jansson libgit2 libpcre2-8 libuv"
expect_eq not-root-uses-sudo "$(deps_print user)" \
  "sudo apt-get install -y -qq --no-install-recommends libtree-sitter-dev"

# make deps on the third-party Node.js machine: says what it installs, then asks apt (a stub
# recording its arguments) for exactly that; the libraries are still missing afterwards, so
# make stops with pkg-config's verdict.
machine mk 0 "node npm pkg-config" "" ""
ln -s "$(command -v make)" mk/bin/make
ln -s "$(command -v mkdir)" mk/bin/mkdir
ln -s "$(command -v touch)" mk/bin/touch
printf '#!/bin/sh\necho "$*" >> "%s/apt.log"\n' "$TMPD" > mk/bin/apt-get
chmod +x mk/bin/apt-get
out=$(cd "$ROOT" && PATH="$TMPD/mk/bin" PKG_CONFIG_LIBDIR="$TMPD/mk/pc" PKG_CONFIG_PATH= \
      DEPS_INCLUDE_DIR="$TMPD/mk/include" make --no-print-directory deps BUILD="$TMPD/mk-build" 2>&1); rc=$?
expect_contains make-deps-says-what-first "$out" "installing missing Debian packages: build-essential g++ git python3 valgrind pre-commit libjansson-dev"
expect_eq make-deps-apt-calls "$(cat apt.log)" "update -qq
install -y -qq --no-install-recommends build-essential g++ git python3 valgrind pre-commit libjansson-dev libgit2-dev libpcre2-dev libuv1-dev libtree-sitter-dev libcpptoml-dev"
expect_not_contains make-deps-leaves-node-alone "$(cat apt.log)" "nodejs"
expect_contains make-deps-still-missing-stops "$out" "pkg-config cannot find"
[ $rc -ne 0 ] && pass make-deps-fails-when-still-missing || fail make-deps-fails-when-still-missing "exit 0"
# and with everything there, make deps installs nothing and succeeds
machine mkfull 0 "$ALL_CMDS pkg-config" "$ALL_LIBS"
for c in make mkdir touch; do ln -sf "$(command -v $c)" mkfull/bin/$c; done
: > apt.log
printf '#!/bin/sh\necho "$*" >> "%s/apt.log"\n' "$TMPD" > mkfull/bin/apt-get; chmod +x mkfull/bin/apt-get
(cd "$ROOT" && PATH="$TMPD/mkfull/bin" PKG_CONFIG_LIBDIR="$TMPD/mkfull/pc" PKG_CONFIG_PATH= \
  DEPS_INCLUDE_DIR="$TMPD/mkfull/include" make --no-print-directory deps BUILD="$TMPD/mkfull-build" >/dev/null 2>&1); rc=$?
expect_rc make-deps-nothing-missing-exit-0 $rc 0
expect_eq make-deps-nothing-missing-no-apt "$(cat apt.log)" ""
