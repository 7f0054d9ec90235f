import crypto from 'node:crypto';
import { type SavedViewKind, savedViewLimits, savedViewNameKey } from '../../../contracts/console/saved-view-basics.js';
import type { SavedView } from '../../../contracts/saved-views.js';
import type { ChangeKind, RecordWrite } from '../derived/change-kinds.js';
import type { Database } from '../engine/database.js';

/** What a saved view's write changes: nothing derived reads them. */
const savedViewChanges: readonly ChangeKind[] = ['saved-views'];

/** A view as made: its name, view and query, already checked by the contract's schema. */
export interface NewSavedView {
  name: string;
  view: SavedViewKind;
  query: string;
}

/** A write refused because of the organization's other views: a name taken, or one view too many. */
export class SavedViewConflictError extends Error {}

const columns = 'id, name, view, query, created_at, updated_at';

/**
 * The SQL of the saved_views table: a local record of an organization (a console view's
 * filters under a name), kept across syncs. Each change is one store write of `saved-views`.
 * Names are unique in an organization by {@link savedViewNameKey}, which the table's unique
 * index holds too.
 */
export class SavedViewRecords {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    private readonly write: RecordWrite,
  ) {}

  /** The organization's views, by name without case. */
  list(orgRowId: number): SavedView[] {
    return this.db.all<SavedView>(`SELECT ${columns} FROM saved_views WHERE org_id = ? ORDER BY name_key, id`, [orgRowId]);
  }

  /** One view of the organization, or undefined. */
  get(orgRowId: number, id: string): SavedView | undefined {
    return this.db.get<SavedView>(`SELECT ${columns} FROM saved_views WHERE org_id = ? AND id = ?`, [orgRowId, id.toLowerCase()]);
  }

  /**
   * Makes the views `views` (names distinct among themselves) in one write, all or none.
   * @throws SavedViewConflictError when a name is taken, or the organization would hold too many
   */
  create(orgRowId: number, views: readonly NewSavedView[]): SavedView[] {
    return this.write(savedViewChanges, () => {
      const held = this.db.value('SELECT count(*) FROM saved_views WHERE org_id = ?', [orgRowId]) as number;
      if (held + views.length > savedViewLimits.perOrganization) {
        throw new SavedViewConflictError(`The organization holds ${held} views, and may hold at most ${savedViewLimits.perOrganization}: delete some first`);
      }
      const taken = views.filter((view) => this.nameTaken(orgRowId, view.name));
      if (taken.length > 0) throw new SavedViewConflictError(`A view is already named ${taken.map((view) => `"${view.name}"`).join(', ')}: rename or delete it first`);
      const at = new Date(this.now()).toISOString();
      return views.map((view) => {
        const made: SavedView = { id: crypto.randomUUID(), ...view, created_at: at, updated_at: at };
        this.db.run('INSERT INTO saved_views (id, org_id, name, name_key, view, query, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
          made.id,
          orgRowId,
          made.name,
          savedViewNameKey(made.name),
          made.view,
          made.query,
          at,
          at,
        ]);
        return made;
      });
    });
  }

  /**
   * Renames a view, or replaces its query (already checked against its view), or both.
   * @returns the view, or undefined when the organization has none of this id
   * @throws SavedViewConflictError when another view has the name
   */
  update(orgRowId: number, id: string, change: { name?: string | undefined; query?: string | undefined }): SavedView | undefined {
    return this.write(savedViewChanges, () => {
      const current = this.get(orgRowId, id);
      if (!current) return undefined;
      const name = change.name ?? current.name;
      if (this.nameTaken(orgRowId, name, current.id)) throw new SavedViewConflictError(`A view is already named "${name}": rename or delete it first`);
      const query = change.query ?? current.query;
      const at = new Date(this.now()).toISOString();
      this.db.run('UPDATE saved_views SET name = ?, name_key = ?, query = ?, updated_at = ? WHERE org_id = ? AND id = ?', [name, savedViewNameKey(name), query, at, orgRowId, current.id]);
      return { ...current, name, query, updated_at: at };
    });
  }

  /** Deletes a view; false when the organization has none of this id. */
  delete(orgRowId: number, id: string): boolean {
    return this.write(savedViewChanges, () => this.db.run('DELETE FROM saved_views WHERE org_id = ? AND id = ?', [orgRowId, id.toLowerCase()]) > 0);
  }

  /** Whether another view of the organization than `exceptId` has this name (without case). */
  private nameTaken(orgRowId: number, name: string, exceptId = ''): boolean {
    return this.db.get('SELECT 1 AS taken FROM saved_views WHERE org_id = ? AND name_key = ? AND id <> ?', [orgRowId, savedViewNameKey(name), exceptId]) !== undefined;
  }
}
