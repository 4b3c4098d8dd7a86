#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.
# A Debian root with that release's own python3, for running the tiers on
# another Python (doc/source/contributor/pythons.rst):
#   bash tools/python-root.sh build SUITE     # bullseye (3.9), trixie (3.13),
#                                             # forky (3.14); prints the root
#   bash tools/python-root.sh venv SUITE SERIES [WHEEL]
#                               # the series' venv in the root, printed as
#                               # the root sees it (/opt/venvs/<series>)
#   bash tools/python-root.sh run SUITE CMD...  # CMD in the root, as root
# The root is .roots/<suite> (ignored by git), built with mmdebstrap from
# the Debian archive the machine's apt already reaches; a root that is
# complete is kept (delete it to rebuild). mmdebstrap comes from Debian's
# package too, unpacked into .roots/.tools when the machine lacks it: the
# machine's packages are left as they were.
# `run` works in private mount and PID namespaces (unshare): /dev, /proc
# and the checkout (at its own path) are mounted there only, so no mount
# outlives the command and every process it started ends with it. The
# network is the machine's: services on 127.0.0.1 are shared both ways.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
mirror=${HLP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# python3-venv for the venvs, a compiler and headers for sdists pip builds,
# git for pbr and the tests, MariaDB for the mariadb-marked tests.
packages=python3,python3-venv,python3-dev,gcc,libc6-dev,git,ca-certificates
packages=$packages,mariadb-server

usage() { sed -n '13,/^set -euo/p' "$0" | grep '^#' | cut -c3- >&2; exit 2; }
[ $# -ge 2 ] || usage
action=$1 suite=$2
shift 2
case $suite in
    bullseye|bookworm|trixie|forky) ;;
    *) echo "unknown suite '$suite' (bullseye, bookworm, trixie, forky)" >&2
       exit 2 ;;
esac
root=$repo/.roots/$suite
[ "$(id -u)" = 0 ] || { echo "python-root.sh runs as root" >&2; exit 1; }

mmdebstrap_cmd() {
    if command -v mmdebstrap >/dev/null 2>&1; then
        echo mmdebstrap
        return
    fi
    local tools=$repo/.roots/.tools
    mkdir -p "$tools"
    # Roots build side by side (tools/matrix.py): one download at a time.
    (flock 8
     if [ ! -x "$tools/x/usr/bin/mmdebstrap" ]; then
         cd "$tools" && apt-get download -q mmdebstrap >&2 &&
             dpkg -x mmdebstrap_*.deb x
     fi) 8> "$tools/.lock"
    echo "$tools/x/usr/bin/mmdebstrap"
}

build() {
    if [ -e "$root/.hlp-root-complete" ]; then
        echo "$root"
        return
    fi
    rm -rf "$root.new"
    mkdir -p "$repo/.roots"
    local start=$SECONDS log=$repo/.roots/$suite.build.log
    echo "building the $suite root in $root ..." >&2
    # Check-Valid-Until off: the archive's testing suite (forky) has been
    # seen served with an expired Release file; the signature is still
    # checked.
    if ! "$(mmdebstrap_cmd)" --mode=unshare --variant=apt \
            --include="$packages" \
            '--aptopt=Acquire::Check-Valid-Until "false"' \
            "$suite" "$root.new" "$mirror" > "$log" 2>&1; then
        tail -20 "$log" >&2
        echo "building the $suite root failed (log: $log)" >&2
        rm -rf "$root.new"
        exit 1
    fi
    rm -rf "$root"
    mv "$root.new" "$root"
    "$root"/usr/bin/python3 --version > "$root/.hlp-root-complete" 2>&1 ||
        chroot "$root" python3 --version > "$root/.hlp-root-complete"
    echo "$suite root built in $((SECONDS - start)) s:" \
         "$(cat "$root/.hlp-root-complete")," \
         "$(du -sh "$root" | cut -f1)" >&2
    echo "$root"
}

run() {
    [ -e "$root/.hlp-root-complete" ] || {
        echo "no $suite root: bash tools/python-root.sh build $suite" >&2
        exit 1
    }
    [ $# -gt 0 ] || usage
    # The machine's name servers and CA bundle (its egress may be
    # TLS-intercepted by a local CA that Debian's bundle lacks).
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    cp /etc/hosts "$root/etc/hosts"  # mmdebstrap writes none: localhost
    cp /etc/ssl/certs/ca-certificates.crt \
       "$root/etc/ssl/certs/ca-certificates.crt"
    mkdir -p "$root$repo"
    # The private namespaces' mounts and processes end with the command.
    exec unshare --mount --propagation private --pid --fork -- \
        /bin/sh -c '
            root=$1 repo=$2; shift 2
            mount --rbind /dev "$root/dev"
            mount -t proc proc "$root/proc"
            mount --bind "$repo" "$root$repo"
            cd "$root$repo"
            exec chroot "$root" /usr/bin/env -i HOME=/root \
                PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
                LANG=C.UTF-8 TERM="${TERM:-dumb}" \
                PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
                REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt \
                SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
                PIP_DISABLE_PIP_VERSION_CHECK=1 \
                ${HLP_ROOT_ENV:-} \
                /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$repo" "$@"
        ' sh "$root" "$repo" "$@"
}

# As tools/venv.sh, with the root's python3: the series' constraints and
# requirements, reinstalled when they change, then WHEEL (--no-deps).
venv() {
    local series=${1:?series} wheel=${2:-}
    local inside=/opt/venvs/$series venv=$root/opt/venvs/$series
    local want
    want=$(cat constraints/"$series".txt \
           constraints/upper-constraints-"$series".txt requirements.txt \
           test-requirements.txt tools/constraints.py | sha256sum | cut -c1-16)
    if [ "$(cat "$venv/.installed-from" 2>/dev/null)" != "$want" ]; then
        echo "building the Heat $series venv in the $suite root ..." >&2
        local start=$SECONDS
        mkdir -p "$venv"
        python3 tools/constraints.py "$series" "$venv/constraints.txt"
        if ! (run sh -c "
                set -e
                [ -x $inside/bin/python ] || python3 -m venv $inside
                pip=\"$inside/bin/pip install --no-warn-script-location\"
                \$pip --upgrade pip wheel
                \$pip -c $inside/constraints.txt -r requirements.txt \
                    -r test-requirements.txt") > "$venv/install.log" 2>&1
        then
            tail -40 "$venv/install.log" >&2
            echo "Heat $series in the $suite root: installing the venv" \
                 "failed (log: $venv/install.log)" >&2
            exit 1
        fi
        echo "$want" > "$venv/.installed-from"
        echo "Heat $series venv in the $suite root: $((SECONDS - start)) s" >&2
    fi
    if [ -n "$wheel" ]; then
        (run "$inside/bin/pip" install --no-warn-script-location --no-deps \
            --force-reinstall "$wheel") > "$venv/wheel-install.log" 2>&1 || {
            tail -20 "$venv/wheel-install.log" >&2
            echo "installing $wheel in the $suite root failed" >&2
            exit 1
        }
    fi
    echo "$inside"
}

case $action in
    build) build ;;
    venv) venv "$@" ;;
    run) run "$@" ;;
    *) usage ;;
esac
