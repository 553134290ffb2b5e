#!/usr/bin/env bash
# Builds Tessera's release archives into dist/ (ignored by git):
#   dist/tessera-<version>-x86_64-windows.zip     tessera-uci.exe, tessera-ucci.exe, pbrain-tessera.exe,
#                                                 tessera-agi.exe, tessera-gtp.exe, tessera.exe
#   dist/tessera-<version>-x86_64-linux.tar.gz    the same six programs for Linux
#   dist/SHA256SUMS
# Each archive holds one folder of the same name with the programs, README.txt (what each program is
# and how each GUI loads it: scripts/release/README.txt), LICENSE-MIT, LICENSE-APACHE and
# THIRD-PARTY-LICENSES.txt (the crates compiled in). The unpacked folders stay beside the archives:
# scripts/test-windows.sh tests the .exe files there.
#
# Every program is one self-contained file with its networks embedded (Gomocup requires one file
# per brain): the Windows ones are built for x86_64-pc-windows-gnu with mingw-w64 and need no DLL
# beyond Windows' own (checked below); the Linux ones are static (musl), so they run on any x86-64
# Linux of the last decade, whatever its C library. `--version` names the version and the commit
# (`git describe --always --dirty`).
#
# Toolchain: the machine's rustup toolchain with the two targets' std added (`rustup target add`).
# Where rustup cannot download them, Debian's own Rust 1.96 (packages rustc-web, cargo-web,
# libstd-rust-web-dev, rust-web-src) is unpacked into a cache folder outside the repository (no
# system change; rustup untouched) and builds the Windows std from source (-Zbuild-std); the Linux
# programs then link against glibc instead, and README.txt says which glibc they need.
# TESSERA_RELEASE_TOOLCHAIN=rustup|debian chooses instead of trying in that order.
#
# Idempotent: reruns rebuild only what changed and replace the archives. As root it installs what
# it needs with apt-get (mingw-w64, zip), as .ci/run does; otherwise it says what is missing.
#
# Usage: scripts/release.sh            (about 6 minutes on 2 cores from a clean target folder)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

programs=(tessera-uci tessera-ucci pbrain-tessera tessera-agi tessera-gtp tessera)
windows=x86_64-pc-windows-gnu
musl=x86_64-unknown-linux-musl
glibc=x86_64-unknown-linux-gnu
# Windows' own DLLs (and the API sets it forwards): anything else would have to ship beside the .exe.
system_dlls='^(kernel32|ntdll|msvcrt|advapi32|bcrypt|bcryptprimitives|ws2_32|userenv|shell32|ole32|user32|synchronization|api-ms-win-[a-z0-9-]+)\.dll$'

step() { printf '\n== %s (%ss)\n' "$*" "$SECONDS" >&2; }
die() { echo "release.sh: $*" >&2; exit 1; }

apt_install() {
  local missing=() package
  for package in "$@"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  [ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (apt-get install ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Debian's Rust 1.96, unpacked once into a cache folder, on PATH for the rest of this script.
use_debian_rust() {
  local home=${TESSERA_DEBIAN_RUST:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera/debian-rust-1.96}
  local packages=(rustc-web cargo-web libstd-rust-web-1.96 libstd-rust-web-dev rust-web-src)
  if [ ! -e "$home/.ready" ]; then
    step "unpacking Debian's Rust 1.96 into $home"
    rm -rf "$home" && mkdir -p "$home/debs"
    # The packages and the libraries they need that this machine lacks (apt's own resolution).
    local needed
    needed=$(apt-get install --dry-run -qq --no-install-recommends "${packages[@]}" | awk '/^Inst /{print $2}')
    [ -n "$needed" ] || die "apt-get finds no $(IFS=' '; echo "${packages[*]}") (run apt-get update)"
    # shellcheck disable=SC2086 # one package name per word
    (cd "$home/debs" && apt-get download $needed >/dev/null 2>&1) || die "apt-get download failed: $needed"
    for deb in "$home"/debs/*.deb; do dpkg-deb -x "$deb" "$home/root"; done
    rm -rf "$home/debs"
    touch "$home/.ready"
  fi
  export PATH=$home/root/usr/bin:$PATH
  export LD_LIBRARY_PATH=$home/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # -Zbuild-std is unstable; this compiler is a stable release, so it has to be told.
  export RUSTC_BOOTSTRAP=1
  export CARGO_TARGET_DIR=$repo/target/debian-rust
  rustc --version >&2
}

step "system packages"
apt_install gcc-mingw-w64-x86-64 zip
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc

step "toolchain"
toolchain=${TESSERA_RELEASE_TOOLCHAIN:-}
if [ -z "$toolchain" ] || [ "$toolchain" = rustup ]; then
  if command -v rustup >/dev/null && timeout 300 rustup target add "$windows" "$musl" >&2; then
    toolchain=rustup
  elif [ "$toolchain" = rustup ]; then
    die "rustup could not add the targets $windows and $musl"
  else
    echo "rustup cannot add the targets here: using Debian's Rust instead" >&2
    toolchain=debian
  fi
fi
case "$toolchain" in
  rustup)
    windows_flags=() linux=$musl
    # The Syzygy prober (fathom-syzygy-sys) compiles C: the static Linux build needs musl's gcc.
    apt_install musl-tools
    export CC_x86_64_unknown_linux_musl=musl-gcc ;;
  debian) use_debian_rust; windows_flags=(-Zbuild-std=std,panic_abort) linux=$glibc ;;
  *) die "TESSERA_RELEASE_TOOLCHAIN must be rustup or debian, not $toolchain" ;;
esac

version=$(cargo metadata --no-deps --format-version 1 --offline \
  | python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "tessera"))')
# The commit every --version names; release builds of a dirty tree say so.
export TESSERA_COMMIT=${TESSERA_COMMIT:-$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)}
# No debugger symbols ship (the release profile has debug = false); strip the rest too.
export CARGO_PROFILE_RELEASE_STRIP=symbols
# Reproducible archives: every file dated at the commit.
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
target_root=${CARGO_TARGET_DIR:-$repo/target}
package_args=()
for program in "${programs[@]}"; do package_args+=(-p "$program"); done

build() { # TARGET [cargo flags…]
  local target=$1
  shift
  step "building for $target"
  cargo build --release --locked --bins --target "$target" "${package_args[@]}" "$@" >&2
}

# Stages dist/NAME with the programs of TARGET (suffix SUFFIX) and the documents.
stage() { # NAME TARGET SUFFIX PLATFORM
  local name=$1 target=$2 suffix=$3 platform=$4 folder=dist/$1 program
  rm -rf "$folder" && mkdir -p "$folder"
  for program in "${programs[@]}"; do
    cp "$target_root/$target/release/$program$suffix" "$folder/"
  done
  cp LICENSE-MIT LICENSE-APACHE "$folder/"
  python3 scripts/release/third-party-licenses.py "$target" "${programs[@]}" >"$folder/THIRD-PARTY-LICENSES.txt"
  local no_dlls="" glibc_note=""
  [ "$suffix" = .exe ] && no_dlls=" (only Windows' own DLLs)"
  [ "$target" = "$glibc" ] && glibc_note=" beyond the C library (glibc $(needed_glibc "$folder/tessera") or later)"
  sed -e "s/@VERSION@/$version/g" -e "s/@COMMIT@/$TESSERA_COMMIT/g" -e "s/@EXE@/$suffix/g" \
    -e "s/@PLATFORM@/$platform/g" -e "s/@NO_DLLS@/$no_dlls$glibc_note/g" \
    scripts/release/README.txt >"$folder/README.txt"
  if [ "$suffix" = .exe ]; then # Notepad before Windows 10 shows LF-only text as one line
    sed -i 's/$/\r/' "$folder/README.txt" "$folder/LICENSE-MIT" "$folder/LICENSE-APACHE" "$folder/THIRD-PARTY-LICENSES.txt"
  fi
  find "$folder" -exec touch -h -d "@$epoch" {} +
}

# The newest GLIBC_x.y symbol version a binary needs.
needed_glibc() {
  objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1
}

check_windows() { # FOLDER
  local exe dll
  for exe in "$1"/*.exe; do
    while read -r dll; do
      [[ ${dll,,} =~ $system_dlls ]] || die "$(basename "$exe") needs $dll, which Windows does not have"
    done < <(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^\s*DLL Name: //p')
  done
}

check_linux() { # FOLDER
  local program
  for program in "${programs[@]}"; do
    if [ "$linux" = "$musl" ] && readelf -d "$1/$program" | grep -q NEEDED; then
      die "$program is not static: $(readelf -d "$1/$program" | grep NEEDED | tr -s ' ')"
    fi
    "$1/$program" --version | grep -qF "$version (commit $TESSERA_COMMIT)" \
      || die "$program --version does not name $version and $TESSERA_COMMIT"
  done
}

build "$windows" "${windows_flags[@]}"
build "$linux"

step "archives"
mkdir -p dist
windows_name=tessera-$version-x86_64-windows
linux_name=tessera-$version-x86_64-linux
stage "$windows_name" "$windows" .exe "Windows (x86-64)"
check_windows "dist/$windows_name"
stage "$linux_name" "$linux" "" "Linux (x86-64)"
check_linux "dist/$linux_name"
rm -f "dist/$windows_name.zip" "dist/$linux_name.tar.gz"
(cd dist && find "$windows_name" | LC_ALL=C sort | zip -X -q "$windows_name.zip" -@)
tar -C dist --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner -cf - "$linux_name" \
  | gzip -n -9 >"dist/$linux_name.tar.gz"
(cd dist && sha256sum "$windows_name.zip" "$linux_name.tar.gz" >SHA256SUMS)

step "done"
for file in "dist/$windows_name.zip" "dist/$linux_name.tar.gz"; do
  printf '%s  %s\n' "$(du -h "$file" | cut -f1)" "$file" >&2
done
echo "dist/SHA256SUMS"
