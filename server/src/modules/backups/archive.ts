// The backup file is a gzipped tar (ustar), readable by `tar -xzf` on any machine. No tar library
// is among the server's dependencies (PGlite bundles its own, unexported), and the portal only needs
// plain files with short names of its own making, so the format is written and read here.

/** Tar's unit: headers and file data come in blocks of this size. */
const BLOCK = 512;
/** The longest name a ustar header holds without its prefix field; every name the portal writes is shorter. */
const NAME_MAX = 100;

/** A file of the archive: a name and its bytes. */
export interface ArchiveEntry {
  name: string;
  data: Uint8Array;
}

/** The archive's bytes could not be read as a tar of plain files (the gzip may still have been whole). */
export class ArchiveFormatError extends Error {}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) >= NAME_MAX) throw new Error(`${name}: name too long for the archive`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0);
  block.write(octal(0o600, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136);
  block.write('0', 156); // a regular file
  block.write('ustar\u000000', 257);
  // The checksum is summed with its own field as spaces.
  block.write(' '.repeat(8), 148);
  block.write(`${octal(checksum(block), 7)} `, 148);
  return block;
}

const checksum = (block: Buffer) => block.reduce((sum, byte) => sum + byte, 0);

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The archive as tar blocks, one entry after the other, ending with tar's two empty blocks. */
export async function* tarBlocks(entries: AsyncIterable<ArchiveEntry>, mtime = new Date()): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    yield header(entry.name, entry.data.byteLength, mtime);
    yield Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
    yield padding(entry.data.byteLength);
  }
  yield Buffer.alloc(2 * BLOCK);
}

function parseHeader(block: Buffer): { name: string; size: number; type: string } | null {
  if (block.every((byte) => byte === 0)) return null;
  const text = (from: number, length: number) => block.toString('latin1', from, from + length).replace(/\0.*$/s, '');
  const stated = parseInt(text(148, 8).trim(), 8);
  block.fill(' ', 148, 156);
  const size = parseInt(text(124, 12).trim(), 8);
  if (!text(257, 6).startsWith('ustar') || stated !== checksum(block) || !Number.isSafeInteger(size)) {
    throw new ArchiveFormatError('not a tar archive');
  }
  return { name: block.toString('utf8', 0, NAME_MAX).replace(/\0.*$/s, ''), size, type: text(156, 1) || '0' };
}

/**
 * Reads a tar stream, handing each file's bytes in order to `sink.write` (called once a file
 * with its whole data, as the portal's files are images and a database of bounded size).
 * Anything but regular files, or an archive that stops before tar's end blocks, is refused.
 */
export async function readTar(source: AsyncIterable<Buffer>, sink: (entry: ArchiveEntry) => Promise<void>): Promise<void> {
  // Chunks are joined only once the next header or file is whole: a large file is copied once.
  let chunks: Buffer[] = [];
  let length = 0;
  const take = (size: number) => {
    const joined = Buffer.concat(chunks, length);
    chunks = [joined.subarray(size)];
    length -= size;
    return joined.subarray(0, size);
  };
  let current: { name: string; size: number } | null = null;
  let ended = false;
  for await (const chunk of source) {
    chunks.push(chunk);
    length += chunk.length;
    while (!ended) {
      const needed = current ? current.size + padding(current.size).length : BLOCK;
      if (length < needed) break;
      const bytes = take(needed);
      if (current) {
        await sink({ name: current.name, data: bytes.subarray(0, current.size) });
        current = null;
        continue;
      }
      const parsed = parseHeader(Buffer.from(bytes));
      if (!parsed) ended = true;
      else if (parsed.type !== '0') throw new ArchiveFormatError(`${parsed.name} is not a plain file`);
      else current = parsed;
    }
  }
  if (!ended) throw new ArchiveFormatError('the archive stops before its end');
}
