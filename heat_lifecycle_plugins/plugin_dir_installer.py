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
"""Writes plugin_dir_loader.py into a directory of heat-engine's plugin_dirs.

`heat-lifecycle-plugins install-loader` runs it (`--remove` takes it out
again, before the package is uninstalled); so do the test fixtures and
the benchmarks, which start heat-engine as an operator would.
"""

import os

from heat_lifecycle_plugins import plugin_dir_loader

LOADER_FILENAME = 'heat_lifecycle_plugins_loader.py'


def loader_source():
    with open(plugin_dir_loader.__file__, encoding='utf-8') as f:
        return f.read()


def install_loader(plugin_dir, force=False):
    """Write the loader into plugin_dir; return (path, 'written'|'unchanged').

    Raises FileExistsError if a different file is there and force is False.
    """
    return install_file(plugin_dir, LOADER_FILENAME, loader_source(),
                        'loader', force)


def install_file(folder, filename, text, kind, force=False):
    """Write `text` as folder/filename; return (path, 'written'|'unchanged').

    Raises FileExistsError, naming `kind`, if a different file is there
    and force is False.
    """
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, filename)
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            if f.read() == text:
                return path, 'unchanged'
        if not force:
            raise FileExistsError(
                '%s exists and differs from this version\'s %s; '
                'use --force to overwrite it' % (path, kind))
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path, 'written'


def remove_loader(plugin_dir):
    """Delete the loader from plugin_dir; return (path, 'removed'|'absent').

    Only the file of the loader's name goes: it is the only file the
    package writes outside its Python environment.
    """
    path = os.path.join(plugin_dir, LOADER_FILENAME)
    try:
        os.remove(path)
    except FileNotFoundError:
        return path, 'absent'
    return path, 'removed'


def stale_loaders(plugin_dirs):
    """The loader copies in plugin_dirs that differ from this version's.

    An upgrade of the package leaves the copy as it was: install-loader
    --force replaces it.
    """
    source = loader_source()
    stale = []
    for folder in plugin_dirs or ():
        path = os.path.join(folder, LOADER_FILENAME)
        try:
            with open(path, encoding='utf-8') as f:
                if f.read() != source:
                    stale.append(path)
        except OSError:
            continue
    return stale
