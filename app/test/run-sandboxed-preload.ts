import vm from 'node:vm';

/**
 * Runs a preload's CommonJS code as Electron's sandbox does: in a context of its own, with a
 * `require` that knows only `electron` (the fake given here). Returns the modules it required,
 * in order; requiring any other module throws, as it does in the sandbox.
 */
export function runSandboxedPreload(code: string, electron: unknown): string[] {
  const required: string[] = [];
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`module not found: ${name}`);
    return electron;
  };
  const module = { exports: {} };
  vm.runInNewContext(`(function (require, module, exports) {${code}\n})`)(sandboxRequire, module, module.exports);
  return required;
}
