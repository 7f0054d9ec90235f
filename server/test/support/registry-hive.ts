/**
 * A real parser merges the generated .reg file: Debian's `hivexregedit --merge` (package
 * libwin-hivex-perl) into an empty registry hive built here, and the values read back from the
 * hive with hivex's Perl binding. hivex ships no way to make an empty hive, so {@link emptyHive}
 * writes the smallest one hivex opens: the regf base block and one hbin with the root key and its
 * security record (the layout of hivex's lib/hivex-internal.h).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Why the hive merge cannot run here, or undefined when it can. */
export function hivexMissing(): string | undefined {
  const tool = spawnSync('hivexregedit', ['--help'], { encoding: 'utf8' });
  const binding = spawnSync('perl', ['-MWin::Hivex', '-MJSON::PP', '-e', '1'], { encoding: 'utf8' });
  if (tool.error || binding.status !== 0) return 'hivexregedit and Win::Hivex are not installed (apt-get install libwin-hivex-perl)';
  return undefined;
}

const pageSize = 0x1000;

/** An empty hive: a root key named ROOT with a minimal self-relative security descriptor, no subkeys, no values. */
export function emptyHive(): Buffer {
  const hive = Buffer.alloc(2 * pageSize);
  const bin = pageSize;
  hive.write('hbin', bin, 'latin1');
  hive.writeUInt32LE(0, bin + 4); // this hbin's offset from the first
  hive.writeUInt32LE(pageSize, bin + 8); // its size

  // Offsets of cells are relative to the first hbin; each cell starts with its size, negative when in use.
  const rootName = 'ROOT';
  const root = 0x20;
  const rootSize = align8(0x50 + rootName.length);
  const security = root + rootSize;
  // Revision 1, control SE_SELF_RELATIVE | SE_DACL_PRESENT, no owner, group, SACL or DACL: everyone may do anything.
  const descriptor = Buffer.from([1, 0, 0x04, 0x80, ...new Array<number>(16).fill(0)]);
  const securitySize = align8(0x18 + descriptor.length);
  const free = security + securitySize;

  const cell = bin + root;
  hive.writeInt32LE(-rootSize, cell);
  hive.write('nk', cell + 0x04, 'latin1');
  hive.writeUInt16LE(0x2c, cell + 0x06); // KEY_HIVE_ENTRY | KEY_NO_DELETE | KEY_COMP_NAME
  hive.writeUInt32LE(0xffffffff, cell + 0x14); // no parent
  hive.writeUInt32LE(0xffffffff, cell + 0x20); // no subkey list
  hive.writeUInt32LE(0xffffffff, cell + 0x24); // no volatile subkey list
  hive.writeUInt32LE(0xffffffff, cell + 0x2c); // no value list
  hive.writeUInt32LE(security, cell + 0x30);
  hive.writeUInt32LE(0xffffffff, cell + 0x34); // no class name
  hive.writeUInt16LE(rootName.length, cell + 0x4c);
  hive.write(rootName, cell + 0x50, 'latin1');

  const sk = bin + security;
  hive.writeInt32LE(-securitySize, sk);
  hive.write('sk', sk + 0x04, 'latin1');
  hive.writeUInt32LE(security, sk + 0x08); // the list of security records: this one only
  hive.writeUInt32LE(security, sk + 0x0c);
  hive.writeUInt32LE(1, sk + 0x10); // used by the root key
  hive.writeUInt32LE(descriptor.length, sk + 0x14);
  descriptor.copy(hive, sk + 0x18);

  hive.writeInt32LE(pageSize - free, bin + free); // the rest of the hbin: one free cell

  hive.write('regf', 0, 'latin1');
  hive.writeUInt32LE(1, 0x04); // sequence numbers, equal: the hive is consistent
  hive.writeUInt32LE(1, 0x08);
  hive.writeUInt32LE(1, 0x14); // format 1.3
  hive.writeUInt32LE(3, 0x18);
  hive.writeUInt32LE(0, 0x1c); // primary file
  hive.writeUInt32LE(1, 0x20); // direct memory load
  hive.writeUInt32LE(root, 0x24);
  hive.writeUInt32LE(pageSize, 0x28); // size of the hbins
  hive.writeUInt32LE(1, 0x2c); // clustering factor
  let checksum = 0;
  for (let offset = 0; offset < 0x1fc; offset += 4) checksum = (checksum ^ hive.readUInt32LE(offset)) >>> 0;
  hive.writeUInt32LE(checksum, 0x1fc);
  return hive;
}

function align8(size: number): number {
  return (size + 7) & ~7;
}

/** A value read back from the hive. */
export interface RegistryValue {
  name: string;
  /** 1 REG_SZ, 4 REG_DWORD, ... */
  type: number;
  value: string | number;
}

/** The prefix of the keys a SOFTWARE hive holds. */
const softwarePrefix = 'HKEY_LOCAL_MACHINE\\SOFTWARE';

/**
 * Merges a .reg file, as Windows writes one (UTF-16LE with a byte-order mark, CRLF lines), into an
 * empty SOFTWARE hive with `hivexregedit --merge`, and returns the values of `key` read back from
 * the hive. As hivexregedit's manual asks, the file is first re-encoded to UTF-8 with LF lines
 * (`iconv -f utf-16le -t utf-8 | dos2unix`; the byte-order mark stays, its parser skips it). Unlike
 * regedit, hivex does not create missing parent keys, so they are merged first.
 * @throws Error with hivexregedit's message when the merge fails
 */
export function mergeIntoEmptyHive(regFile: Uint8Array, key: string): RegistryValue[] {
  if (!key.startsWith(`${softwarePrefix}\\`)) throw new Error(`${key} is not a key of HKEY_LOCAL_MACHINE\\SOFTWARE`);
  const dir = mkdtempSync(path.join(tmpdir(), 'registry-hive-'));
  try {
    const hive = path.join(dir, 'software.hive');
    writeFileSync(hive, emptyHive());
    const relative = key.slice(softwarePrefix.length + 1).split('\\');
    const parents = relative.slice(0, -1).map((_, index) => `[${[softwarePrefix, ...relative.slice(0, index + 1)].join('\\')}]\n`);
    const parentsFile = path.join(dir, 'parents.reg');
    writeFileSync(parentsFile, `Windows Registry Editor Version 5.00\n\n${parents.join('\n')}\n`);
    const converted = path.join(dir, 'merged.reg');
    writeFileSync(converted, Buffer.from(regFile).toString('utf16le').replace(/\r\n/g, '\n'), 'utf8');

    // PERL_UNICODE=D: hivexregedit reads the file as UTF-8 text, so a non-ASCII character is one character.
    const merge = spawnSync('hivexregedit', ['--merge', '--prefix', softwarePrefix, hive, parentsFile, converted], {
      encoding: 'utf8',
      env: { ...process.env, PERL_UNICODE: 'D' },
    });
    if (merge.status !== 0) throw new Error(`hivexregedit --merge failed: ${merge.stderr}`);

    const dump = spawnSync(
      'perl',
      [
        '-MWin::Hivex',
        '-MJSON::PP',
        '-e',
        `my $h = Win::Hivex->open($ARGV[0]);
         my $node = $h->root;
         for my $name (split /\\\\/, $ARGV[1]) { $node = $h->node_get_child($node, $name) or die "no key $name\\n" }
         # value_string answers UTF-8 bytes: printed as they are.
         print JSON::PP->new->canonical->encode([map {
           my ($type) = $h->value_type($_);
           { name => $h->value_key($_), type => $type, value => $type == 4 ? $h->value_dword($_) : $h->value_string($_) }
         } $h->node_values($node)]);`,
        hive,
        relative.join('\\'),
      ],
      { encoding: 'utf8' },
    );
    if (dump.status !== 0) throw new Error(`reading the hive failed: ${dump.stderr}`);
    return JSON.parse(dump.stdout) as RegistryValue[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
