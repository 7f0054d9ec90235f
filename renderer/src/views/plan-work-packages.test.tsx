import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StatusMapping, WorkPackageList } from '../../../contracts/console/work-packages';
import { consoleJson } from '../api/console-fetch';
import { openConsole } from '../test-support/console-page';

describe("the plan's status names", () => {
  it('marks a name given twice and saves nothing, saves the corrected names, and an import reports each status mapped by them or by nothing', async () => {
    const { user } = openConsole('/orgs/work-packages/remediation-plan');
    await user.click(await screen.findByText('Status names'));
    const form = await screen.findByRole('form', { name: 'Status names' });
    expect(form.textContent).toContain('None saved for this organization yet.');

    await user.click(within(form).getByRole('button', { name: 'Add a name' }));
    await user.click(within(form).getByRole('button', { name: 'Add a name' }));
    await user.type(within(form).getByRole('textbox', { name: 'Status name 1' }), 'Deployed');
    await user.type(within(form).getByRole('textbox', { name: 'Status name 2' }), 'deployed');
    await user.click(within(form).getByRole('button', { name: 'Save status names' }));
    const second = await within(form).findByRole('textbox', { name: 'Status name 2', description: /"deployed" of jira is mapped twice/ });
    expect(second.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByRole('alert').textContent).toBe('Correct the fields marked above: nothing was saved.');
    expect((await consoleJson<StatusMapping>('/orgs/work-packages/work-packages/status-mapping')).mappings).toEqual([]);

    await user.clear(second);
    await user.type(second, 'Ready for QA');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Meaning of name 2' }), 'in-progress');
    await user.click(within(form).getByRole('button', { name: 'Save status names' }));
    expect(await screen.findByText('Saved: the next import reads its statuses through these names.')).toBeTruthy();
    await waitFor(async () =>
      expect((await consoleJson<StatusMapping>('/orgs/work-packages/work-packages/status-mapping')).mappings).toEqual([
        { system: 'jira', status: 'Deployed', maps_to: 'done' },
        { system: 'jira', status: 'Ready for QA', maps_to: 'in-progress' },
      ]),
    );

    const [first] = (await consoleJson<WorkPackageList>('/orgs/work-packages/work-packages')).data;
    const file = ['Issue key,Status,Custom field (External ID)', `OPS-1,Deployed,${first!.external_id}`, 'OPS-2,Frozen,rc-0123456789abcdef0123'].join('\n');
    await user.upload(screen.getByLabelText('Import ticket status'), new File([file], 'jira-export.csv', { type: 'text/csv' }));
    const report = await screen.findByText(/^Jira export of 2 rows/);
    expect(report.getAttribute('role')).toBe('status');
    expect(report.textContent).toBe(
      'Jira export of 2 rows: 1 matched a step, 1 changed; not imported, their status maps to nothing: line 3 (OPS-2) “Frozen”. ' +
        'Statuses: “Deployed” done by the organization\'s status names (1 row); “Frozen” maps to nothing (1 row).',
    );
  });
});
