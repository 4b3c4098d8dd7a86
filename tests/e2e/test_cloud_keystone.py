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
"""The cloud's Keystone keeps concurrent requests apart.

Keystone's AuthContextMiddleware keeps a request's token on itself, so a
process serving several requests at once can judge one request by
another's token: heat-engine's trusts were refused so ("requires a scope
of project, request was made with domain scope"), 15 stack creates in 37,
in the benchmark's batch of stacks. The fixture serves Keystone one
request per process, as its install guide does; this holds it to that,
with the same mix: the demo user's trusts beside heat_domain_admin's
domain-scoped reads.
"""

import concurrent.futures

from keystoneauth1.identity import v3
from keystoneauth1 import session as ks_session

from heat_lifecycle_fixtures import keystone

# Per thread: 40 calls in all, each pair of threads interleaving the two
# kinds. A Keystone served with 8 threads per process fails it (3 of 3
# runs, one call judged by another token each time).
CALLS = 10
THREADS = 4


def domain_admin(ks):
    return ks_session.Session(auth=v3.Password(
        auth_url=ks.url, username='heat_domain_admin',
        password=keystone.DOMAIN_ADMIN_PASSWORD,
        user_domain_id=ks.heat_domain_id, domain_id=ks.heat_domain_id))


def made_and_deleted_trust(ks, session, trustee_id):
    """A trust made as Heat makes it, then deleted: the last status."""
    body = {'trust': {'trustor_user_id': session.get_user_id(),
                      'trustee_user_id': trustee_id,
                      'project_id': session.get_project_id(),
                      'impersonation': True, 'roles': [{'name': 'member'}]}}
    made = session.post(ks.url + '/OS-TRUST/trusts', json=body,
                        raise_exc=False)
    if made.status_code != 201:
        return made.status_code
    return session.delete(ks.url + '/OS-TRUST/trusts/%s' %
                          made.json()['trust']['id'],
                          raise_exc=False).status_code


def listed_domain_users(ks, session, _trustee_id):
    return session.get(ks.url + '/users?domain_id=%s' % ks.heat_domain_id,
                       raise_exc=False).status_code


def test_trusts_made_beside_domain_scoped_reads_are_made(cloud):
    ks = cloud.keystone
    trustee = ks.admin_client().users.list(name='heat')[0].id
    kinds = [(made_and_deleted_trust, ks.demo_session, 204),
             (listed_domain_users, lambda: domain_admin(ks), 200)]

    def calls(n):
        call, session_of, _ok = kinds[n % 2]
        session = session_of()
        return [(n % 2, call(ks, session, trustee)) for _ in range(CALLS)]

    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        found = [r for done in pool.map(calls, range(THREADS)) for r in done]
    wrong = [(kinds[k][0].__name__, status) for k, status in found
             if status != kinds[k][2]]
    assert len(found) == CALLS * THREADS
    assert not wrong, '%d of %d calls judged by another token: %s' % (
        len(wrong), len(found), wrong[:5])
