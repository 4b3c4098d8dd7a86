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
"""Where the ExternalResource benchmark reads the engine's threads.

While the most executions of a window run at once, which is all of them
when every one starts before any ends.
"""

from benchmarks.external_cases import most_at_once


def test_the_threads_window_is_the_busiest_stretch():
    # All start before any ends: from the last start to the first end.
    assert most_at_once([(0, 10), (1, 12), (2, 11)]) == (3, 2, 10)
    # Creates outlasting the workflow (50 at once, 60 s): never all at
    # once; the first stretch where the most ran.
    assert most_at_once([(0, 5), (1, 6), (2, 7), (6, 9), (8, 12)]) == (
        3, 2, 5)
    assert most_at_once([]) is None
