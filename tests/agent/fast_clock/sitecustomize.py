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
"""A faster monotonic clock for the process that imports it at startup.

On PYTHONPATH with HLP_CLOCK_FACTOR=N (tests/agent/test_time_limits.py),
time.monotonic() runs N times as fast from the process's start: a
deadline of an hour passes after 3600/N real seconds. The variable is
removed, so that the processes it starts (hooks) keep the real clock.
"""

import os
import time

_FACTOR = float(os.environ.pop('HLP_CLOCK_FACTOR', '0') or 0)

if _FACTOR > 0:
    _real = time.monotonic
    _start = _real()

    def _fast():
        return _start + (_real() - _start) * _FACTOR

    time.monotonic = _fast
