// Loaded into a CLI process the benchmark measures (node --import): at exit, writes what the
// kernel counted of the process's I/O (/proc/self/io) and its peak resident memory (VmHWM) as
// JSON to the file BENCH_PROCESS_FIGURES names. Read at exit by the process itself, since the
// parent cannot read /proc/<pid> of a child that node has already reaped.
import fs from 'node:fs';

const out = process.env.BENCH_PROCESS_FIGURES;
if (out) {
  process.on('exit', () => {
    const io = Object.fromEntries(
      fs.readFileSync('/proc/self/io', 'utf8').trim().split('\n').map((line) => {
        const [name, value] = line.split(':');
        return [name.trim(), Number(value)];
      }),
    );
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
    fs.writeFileSync(out, JSON.stringify({ io, peakResidentBytes: peakKb * 1024 }));
  });
}
