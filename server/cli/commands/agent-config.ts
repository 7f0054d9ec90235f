import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { AgentConfigVerificationError, verifyAgentConfig, verifyDetachedSignature } from '../../agent-config/index.js';
import { detachedSignatureExtension } from '../../agent-config/file-contents.js';
import { serverUrlProblem } from '../../organizations/manage-agent-settings.js';
import { requireOrganization } from '../../organizations/manage-organizations.js';
import { produceAgentConfig } from '../../organizations/produce-agent-config.js';
import { agentConfigQuerySchema, checkPlatformProfile } from '../../../contracts/agent-config.js';
import { checkAppendix } from '../../reports/report-appendix.js';
import { checkReportSigners } from '../../reports/report-signers.js';
import { writeFileAtomically } from '../../store/engine/data-directory.js';
import { UsageError, fileProblem, headlessSealer, readGivenFile, resolveDataDir, withStore } from '../cli-context.js';

/** `agent-config` writes a signed agent configuration file; `verify` checks one. */
export function registerAgentConfigCommands(program: Command): void {
  program
    .command('agent-config')
    .description("write an organization's signed agent configuration file")
    .requiredOption('--org <slug>', 'the organization')
    .requiredOption('--platform <platform>', 'macos, windows or linux')
    .option('--profile <profile>', 'config, mdm-full or mdm-permissions', 'config')
    .requiredOption('--out <file>', 'where to write the file')
    .option('--server-url <url>', "the URL agents reach, for this file only (default: the organization's setting, see orgs agent-settings)")
    .option('--allow-loopback', 'accept a loopback --server-url (tests only)')
    .option('--data-dir <dir>', 'data directory')
    .action(async (options: { org: string; platform: string; profile: string; out: string; serverUrl?: string; allowLoopback?: boolean; dataDir?: string }) => {
      const parsed = agentConfigQuerySchema.safeParse({ platform: options.platform, profile: options.profile });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new UsageError(`--${String(issue.path[0])} ${issue.message}`);
      }
      const invalidCombination = checkPlatformProfile(parsed.data.platform, parsed.data.profile);
      if (invalidCombination) throw new UsageError(`Invalid platform/profile combination: ${invalidCombination}`);
      const urlProblem = options.serverUrl === undefined ? undefined : serverUrlProblem(options.serverUrl, options.allowLoopback === true);
      if (urlProblem) throw new UsageError(`--server-url ${urlProblem}`);
      const dataDir = resolveDataDir(options.dataDir);
      await withStore(dataDir, { readOnly: true, command: 'remediation-console agent-config' }, async (store) => {
        const organization = requireOrganization(store, options.org);
        const outcome = await produceAgentConfig(store, headlessSealer(dataDir), organization, parsed.data, {
          serverUrl: options.serverUrl,
          log: (message, error) => console.error(message, error),
        });
        if (!outcome.ok) throw new Error(outcome.message);
        try {
          writeFileAtomically(options.out, outcome.bytes, 0o600);
        } catch (error) {
          // A folder at the name, another user's file there, a name taken first: nothing was written, nothing is left.
          throw new Error(`Cannot write --out ${options.out}: ${fileProblem(error)}; nothing was written`, { cause: error });
        }
        console.log(`Wrote ${path.resolve(options.out)} (${outcome.bytes.length} bytes)`);
        const note = extensionNote(options.out, outcome.filename);
        if (note) console.error(note);
      });
    });

  program
    .command('verify')
    .description('verify a signed agent configuration file, or a report beside its FILE.p7s, and show who signed it')
    .argument('<file>', 'a .zip or .mobileconfig written by agent-config or the API, or a report with its signature in FILE.p7s')
    .option('--cert <pem>', "the organization's certificate (PEM file) the file must be signed with")
    .action(async (file: string, options: { cert?: string }) => {
      const bytes = readGivenFile(file, 'the file');
      const certificatePem = options.cert === undefined ? undefined : readGivenFile(options.cert, '--cert').toString();
      const signatureFile = `${file}${detachedSignatureExtension}`;
      try {
        if (fs.existsSync(signatureFile)) {
          const label = path.basename(signatureFile);
          const { signers } = await verifyDetachedSignature(bytes, readGivenFile(signatureFile, 'the signature'), label, certificatePem);
          const checked = checkReportSigners(bytes, signers, label);
          const several = checked.length > 1;
          const how = options.cert
            ? several ? 'the given certificate among the signers' : 'signed with the given certificate'
            : `signed with the certificate${several ? 's' : ''} the signature carries`;
          console.log(
            [
              `Signature: valid, ${label} over ${path.basename(file)}${several ? `, by ${checked.length} signers` : ''} (${how})`,
              ...checked.flatMap((signer) => [
                `Signer: ${signer.signer.subject}${signer.organization === undefined ? '' : ` (organization ${signer.organization})`}`,
                `Fingerprint (SHA-256): ${signer.signer.fingerprint}`,
                `Signed at: ${signer.signedAt ?? 'not said (the signature carries no signing time)'}`,
              ]),
            ].join('\n'),
          );
          await reportAppendixChecks(bytes, file);
          return;
        }
        const report = await verifyAgentConfig(bytes, { certificatePem });
        const lines = [
          `Signature: valid${options.cert ? ' (signed with the given certificate)' : ' (signed with the certificate the file carries)'}`,
          `Signer: ${report.signer.subject}`,
          `Fingerprint (SHA-256): ${report.signer.fingerprint}`,
          `Kind: ${report.kind} (platform ${report.platform}, profile ${report.profile})`,
          `Organization: ${report.organizationId}`,
          `Config id: ${report.configId}`,
          `Generated at: ${report.generatedAt}`,
          `Server URL: ${report.serverUrl ?? 'none (the file holds no agent settings)'}`,
          `Team ID: ${report.teamId ?? 'none (nothing in the file pins one)'}`,
          `Bundle id: ${report.bundleId ?? 'none'}`,
          `Enrollment secret: ${report.holdsEnrollmentSecret ? 'inside (handle the file as a secret)' : 'not inside'}`,
        ];
        if (report.payloads.length > 0) lines.push('Payloads:', ...report.payloads.map((payload) => `  ${payload}`));
        if (report.files.length > 0) lines.push('Files:', ...report.files.map((name) => `  ${name}`));
        console.log(lines.join('\n'));
      } catch (error) {
        if (error instanceof AgentConfigVerificationError) throw new Error(`Verification failed: ${error.message}`, { cause: error });
        throw error;
      }
    });
}

/**
 * Checks a technical report's appendix files beside it against the hashes its signed HTML
 * states, printing each; a changed one fails the command. An absent one is said, not failed:
 * the report may be sent without its appendix.
 */
async function reportAppendixChecks(html: Buffer, file: string): Promise<void> {
  const checks = await checkAppendix(html, file);
  for (const check of checks) {
    const state = { ok: 'valid, its SHA-256 is the one the signed report states', changed: 'CHANGED: its SHA-256 is not the one the signed report states', absent: 'not beside the report, not checked' }[check.state];
    console.log(`Appendix ${path.basename(check.file)} (${check.rows} findings): ${state}`);
  }
  const changed = checks.filter((check) => check.state === 'changed');
  if (changed.length > 0) throw new Error(`Verification failed: ${changed.map((check) => path.basename(check.file)).join(' and ')} changed since the report was signed`);
}

/**
 * A note when --out does not end as the file's own name does (.zip, .mobileconfig): the file is
 * written where asked, but unzip, Finder and MDM consoles go by the extension.
 */
function extensionNote(out: string, filename: string): string | undefined {
  const extension = path.extname(filename);
  if (!extension || path.extname(out).toLowerCase() === extension.toLowerCase()) return undefined;
  return `Note: the file is a ${extension} (the API names it ${filename}), but --out ${out} does not end in ${extension}: rename it so that tools that go by the extension open it`;
}
