import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SaveFileResult, SaveReportPdfRequest } from '../desktop-bridge';
import type { ReportFigures } from '../../../contracts/console/reports';
import type { SyncChanges } from '../../../contracts/console/sync-changes';
import { consoleJson } from '../api/console-fetch';
import { formatDateTime } from '../lib/format';
import { openConsole } from '../test-support/console-page';

describe('reports', () => {
  it("makes a report of the findings list's filters with its Report button, then lists it in Reports with what it was made of", async () => {
    const { user, router } = openConsole('/orgs/lists/vulnerability-findings?severity=critical&status=open&sort=-cvss_score');
    await user.click(await screen.findByRole('button', { name: 'Report' }));
    expect(await screen.findByText(/Report made and signed/, undefined, { timeout: 15_000 })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'open it in Reports' }));
    expect(router.state.location.pathname).toBe('/orgs/lists/reports');
    const table = await screen.findByRole('table', { name: 'Reports' });
    const row = within(table).getAllByRole('row')[1]!;
    // The list's status and order are the report's to set: only the filter goes.
    expect(within(row).getByText('severity=critical')).toBeTruthy();
    expect(row.textContent).toContain('lists');
    expect(within(row).getByRole('link', { name: 'Open' }).getAttribute('href')).toMatch(/^\/app\/orgs\/lists\/reports\/[0-9a-f-]{36}$/);
    // A bridge without a PDF printer (as a browser has none): the browser's print.
    expect(within(row).getByRole('button', { name: 'Print' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Save as PDF' })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Save signature' })).toBeTruthy();
  });

  describe('in a desktop app that prints reports to PDF', () => {
    const bridge = window.desktop!;
    afterEach(() => {
      window.desktop = bridge;
    });

    it('offers Save as PDF instead of Print, asks the bridge for that report, and says where it went or why not', async () => {
      const saveReportPdf = vi
        .fn<(request: SaveReportPdfRequest) => Promise<SaveFileResult>>()
        .mockResolvedValueOnce({ saved: true, path: '/home/me/report.pdf' })
        .mockResolvedValueOnce({ saved: false, reason: 'failed', message: 'Could not print the report to PDF: out of memory' });
      window.desktop = { ...bridge, saveReportPdf };
      const { user } = openConsole('/orgs/lists/reports');
      const form = await screen.findByRole('form', { name: 'Make a report' });
      await user.type(within(form).getByLabelText('Filter'), 'severity=high');
      await user.click(within(form).getByRole('button', { name: 'Make report' }));
      const row = await waitFor(
        () => {
          const made = within(screen.getByRole('table', { name: 'Reports' }))
            .getAllByRole('row')
            .find((candidate) => within(candidate).queryByText('severity=high'));
          if (!made) throw new Error('The report is not listed yet');
          return made;
        },
        { timeout: 15_000 },
      );
      expect(within(row).queryByRole('button', { name: 'Print' })).toBeNull();

      await user.click(within(row).getByRole('button', { name: 'Save as PDF' }));
      expect(await within(row).findByRole('status')).toHaveProperty('textContent', 'Saved to /home/me/report.pdf');
      const reportPath = within(row).getByRole('link', { name: 'Open' }).getAttribute('href')!;
      const reportId = reportPath.split('/').at(-1)!;
      expect(saveReportPdf).toHaveBeenCalledExactlyOnceWith({ suggestedName: `report-${reportId}.pdf`, source: { path: reportPath } });

      await user.click(within(row).getByRole('button', { name: 'Save as PDF' }));
      expect(await within(row).findByRole('alert')).toHaveProperty('textContent', 'Could not print the report to PDF: out of memory');
    });
  });

  it('makes a technical report with the template select, listed with its template and its appendix to save', async () => {
    const { user } = openConsole('/orgs/lists/reports');
    const form = await screen.findByRole('form', { name: 'Make a report' });
    await user.type(within(form).getByLabelText('Filter'), 'severity=critical');
    await user.selectOptions(within(form).getByLabelText('Template'), 'Technical');
    await user.click(within(form).getByRole('button', { name: 'Make report' }));
    const table = await screen.findByRole('table', { name: 'Reports' });
    const row = await waitFor(
      () => {
        const found = within(table).getAllByRole('row').find((candidate) => candidate.textContent?.includes('Technical'));
        expect(found).toBeTruthy();
        return found!;
      },
      { timeout: 15_000 },
    );
    expect(within(row).getByText('severity=critical')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Save appendix (CSV)' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Save appendix (JSON)' })).toBeTruthy();
  });

  it("compares a replica's two syncs chosen in the form: the server's delta is between them", async () => {
    const syncs = (await consoleJson<{ data: SyncChanges[] }>('/orgs/replica/sync-changes')).data;
    expect(syncs).toHaveLength(2);
    const [newest, first] = syncs as [SyncChanges, SyncChanges];
    const { user } = openConsole('/orgs/replica/reports');
    const form = await screen.findByRole('form', { name: 'Make a report' });
    const compared = await within(form).findByLabelText('Compared with');
    // The previous report, or the first sync: the newest starts no delta.
    expect(within(compared).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'the previous report of this filter',
      `sync ${first.id}, ${formatDateTime(first.finishedAt)}`,
    ]);
    expect(within(form).queryByLabelText('until')).toBeNull();
    await user.selectOptions(compared, `sync ${first.id}, ${formatDateTime(first.finishedAt)}`);
    const until = within(form).getByLabelText<HTMLSelectElement>('until');
    expect(until.value).toBe(String(newest.id));
    await user.click(within(form).getByRole('button', { name: 'Make report' }));
    const table = await screen.findByRole('table', { name: 'Reports' }, { timeout: 15_000 });
    const reportPath = within(within(table).getAllByRole('row')[1]!).getByRole('link', { name: 'Open' }).getAttribute('href')!;
    // What the server made of it: the delta between the two syncs, the three findings the second remediated fixed.
    const figures = await consoleJson<ReportFigures>(`${reportPath.replace(/^\/app/, '')}?format=json`);
    const delta = figures.sections[0]!.delta!;
    expect(delta.syncs).toEqual({ from: { id: first.id, finished_at: first.finishedAt }, until: { id: newest.id, finished_at: newest.finishedAt } });
    expect(delta.fixed.count).toBe(3);
  });

  it("makes one report of two organizations with the others' boxes: a section each, counted by the server, signed by both, listed under both", async () => {
    const organizations = (await consoleJson<{ data: { slug: string; name: string }[] }>('/organizations')).data;
    const replica = organizations.find((organization) => organization.slug === 'replica')!;
    const { user, router } = openConsole('/orgs/lists/reports');
    const form = await screen.findByRole('form', { name: 'Make a report' });
    const sections = await within(form).findByRole('group', { name: 'With the sections of' });
    // Every organization but this one is offered.
    expect(within(sections).getAllByRole('checkbox')).toHaveLength(organizations.length - 1);
    await user.type(within(form).getByLabelText('Filter'), 'severity=critical');
    await user.click(within(sections).getByRole('checkbox', { name: replica.name }));
    await user.click(within(form).getByRole('button', { name: 'Make report' }));
    const table = await screen.findByRole('table', { name: 'Reports' }, { timeout: 15_000 });
    const row = await waitFor(
      () => {
        const made = within(table).getAllByRole('row').find((candidate) => within(candidate).queryByText('lists, replica'));
        if (!made) throw new Error(`no report of both yet${screen.queryByRole('alert') ? `: ${screen.queryByRole('alert')!.textContent}` : ''}`);
        return made;
      },
      { timeout: 15_000 },
    );
    expect(within(row).getByText('severity=critical')).toBeTruthy();
    const reportPath = within(row).getByRole('link', { name: 'Open' }).getAttribute('href')!;
    const figures = await consoleJson<ReportFigures>(`${reportPath.replace(/^\/app/, '')}?format=json`);
    expect(figures.sections.map((section) => section.organization.slug)).toEqual(['lists', 'replica']);
    for (const section of figures.sections) {
      const { total } = await consoleJson<{ total: number }>(`/orgs/${section.organization.slug}/vulnerability-findings?severity=critical&status=open&limit=1`);
      expect(section.counts.open).toBe(total);
    }
    // One signer per organization, in their order.
    expect(within(row).getAllByRole('cell')[4]!.textContent!.split('; ')).toHaveLength(2);

    // Listed under the other organization too, and opened from there.
    await router.navigate('/orgs/replica/reports');
    const reportId = reportPath.split('/').at(-1)!;
    const underReplica = await waitFor(
      () => {
        const link = within(screen.getByRole('table', { name: 'Reports' }))
          .getAllByRole('link', { name: 'Open' })
          .find((candidate) => candidate.getAttribute('href') === `/app/orgs/replica/reports/${reportId}`);
        if (!link) throw new Error("the report is not listed under replica's Reports");
        return link;
      },
      { timeout: 15_000 },
    );
    expect(underReplica).toBeTruthy();
    const fromReplica = await consoleJson<ReportFigures>(`/orgs/replica/reports/${reportId}?format=json`);
    expect(fromReplica).toEqual(figures);
  });

  it('offers no syncs to compare for a local organization', async () => {
    openConsole('/orgs/lists/reports');
    const form = await screen.findByRole('form', { name: 'Make a report' });
    // Once the organizations are read (the switcher names them), the form knows this one is local.
    await screen.findAllByText(/Test lists/);
    expect(within(form).queryByLabelText('Compared with')).toBeNull();
  });

  it('says why a filter is refused, and makes nothing', async () => {
    const { user } = openConsole('/orgs/lists/reports');
    const form = await screen.findByRole('form', { name: 'Make a report' });
    const rows = async () => (await screen.findAllByRole('row').catch(() => [])).length;
    const before = await rows();
    await user.type(within(form).getByLabelText('Filter'), 'severity=urgent');
    await user.click(within(form).getByRole('button', { name: 'Make report' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/Invalid filter parameter "severity"/));
    expect(await rows()).toBe(before);
  });
});
