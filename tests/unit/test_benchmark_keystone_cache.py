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
"""The loopback cloud's Keystone cache hands out copies, as memcached does.

Keystone 2025.1 pops encrypted_blob from the credential its memoized
lookup returns; a cache that hands out the stored object itself fails
the credential's next ec2tokens request (KeyError, HTTP 500).
"""

from dogpile.cache import make_region

from benchmarks.external_cloud import KEYSTONE_AS_DEPLOYED


def test_a_value_changed_by_its_reader_stays_whole_in_the_cache():
    region = make_region().configure(KEYSTONE_AS_DEPLOYED['cache']['backend'])
    looked_up = []

    @region.cache_on_arguments()
    def get_credential(credential_id):
        looked_up.append(credential_id)
        return {'id': credential_id, 'encrypted_blob': 'sealed'}

    get_credential('c1').pop('encrypted_blob')  # as Keystone 2025.1 does
    assert get_credential('c1') == {'id': 'c1', 'encrypted_blob': 'sealed'}
    assert looked_up == ['c1']  # the second came from the cache
