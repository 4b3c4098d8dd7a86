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
# Installs the Debian packages the test suite and the demo need: python3-venv
# (every venv), and MariaDB (Heat's database), RabbitMQ (heat-engine <->
# heat-api) and Redis (Zaqar's message store), which they run privately on
# loopback.
#   bash tools/install-system-deps.sh [--python-only | --browser]
# --python-only: python3-venv alone; the unit tier needs nothing else.
# --browser: chromium and chromium-driver too, for the browser tier
# (tests/browser: Selenium drives Debian's chromium, never a downloaded one).
# None of them is started as a system service, and the machine's service
# policy is left as it was found.
set -euo pipefail

need=()
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
if [ "${1:-}" != --python-only ]; then
    command -v mariadbd >/dev/null 2>&1 || need+=(mariadb-server)
    [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || need+=(rabbitmq-server)
    command -v redis-server >/dev/null 2>&1 || need+=(redis-server)  # Zaqar's store
fi
if [ "${1:-}" = --browser ]; then
    [ -x /usr/bin/chromium ] || need+=(chromium)
    [ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${need[*]}; install them as root:" >&2
    echo "  apt-get install -y ${need[*]}" >&2
    exit 1
fi
echo "installing ${need[*]} ..."
apt-get update -qq
# A policy-rc.d that exits 101 keeps the packages from starting system-wide
# services during the install. One the machine already has is kept; ours is
# removed again whatever happens.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    trap 'rm -f "$policy"' EXIT
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod +x "$policy"
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
