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
"""The `cli-reference` directive: a command's --help, as it prints it.

`.. cli-reference:: [COMMAND]` shows the committed copy in
reference/generated/cli (tools/gen_references.py writes it from the
command's own parser; a unit test fails when it is stale).
"""

import os

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


class CliReference(SphinxDirective):
    optional_arguments = 1

    def run(self):
        name = (self.arguments or ['main'])[0]
        path = os.path.join(self.env.srcdir, 'reference', 'generated',
                            'cli', name + '.txt')
        self.env.note_dependency(path)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        block = nodes.literal_block(text, text)
        block['language'] = 'text'
        return [block]


def setup(app):
    app.add_directive('cli-reference', CliReference)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
