import type { RequestHandler, Response } from 'express';
import { slugParamSchema } from '../../../contracts/console/organizations.js';
import type { Organization } from '../../store/records/organization-records.js';
import type { Store } from '../../store/store.js';
import { HttpError } from '../http-error.js';

/**
 * Finds the organization named by the `:slug` path parameter: the console browses every
 * organization of the store, so it is named in the path rather than found from a key. While a
 * sync applies the organization's changes in parts (SyncSteps.applyInParts), the request waits
 * for the last one, then finds the organization again: no request reads a merge half applied.
 */
export function resolveOrganization(store: Store): RequestHandler {
  return (req, res, next) => {
    const slug = slugParamSchema.safeParse(req.params.slug);
    if (!slug.success) throw new HttpError(400, `Invalid path parameter "slug": ${slug.error.issues[0]!.message}`);
    const find = () => {
      const organization = store.organizations.bySlug(slug.data);
      if (!organization) throw new HttpError(404, `Organization "${slug.data}" not found`);
      return organization;
    };
    const organization = find();
    const applying = store.syncSteps.whenApplied(organization.rowId);
    if (!applying) {
      res.locals.organization = organization;
      return next();
    }
    applying
      .then(() => {
        res.locals.organization = find();
        next();
      })
      .catch(next);
  };
}

/** The organization {@link resolveOrganization} found for this request. */
export function organizationOf(res: Response): Organization {
  return res.locals.organization as Organization;
}
