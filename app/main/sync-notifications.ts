import { Notification } from 'electron';
import type { SyncAlert } from '../../contracts/server-thread-channel.js';

/** The title and body of a sync alert's notification. */
export function syncAlertText(alert: SyncAlert): { title: string; body: string } {
  const { total, critical, kev } = alert.changes.newlyOpen;
  return {
    title: `${total.toLocaleString('en')} new critical or KEV finding${total === 1 ? '' : 's'} in ${alert.name}`,
    body:
      `The sync of ${alert.name} (${alert.slug}) found findings newly open: ${critical.toLocaleString('en')} critical, ` +
      `${kev.toLocaleString('en')} in CISA's KEV catalog. Click to see what the sync changed.`,
  };
}

/** Notifications kept from the garbage collector at once: more are shown, the oldest forgotten. */
const notificationsHeld = 20;

/**
 * Shows one native notification per sync alert (a sync that brought findings newly open
 * critical or KEV), unless the user turned them off; a click opens that sync's changes. Each
 * notification is held until it is clicked or closed (a bounded number of them): one that the
 * garbage collector takes no longer reports its click.
 */
export class SyncNotifications {
  private readonly held = new Set<Notification>();

  constructor(
    private readonly options: {
      /** Whether notifications are on now (the setting). */
      enabled: () => boolean;
      /** Shows the window with the alert's changes. */
      open: (alert: SyncAlert) => void;
    },
  ) {}

  /** Shows the alert's notification, where the setting and the system allow. */
  notify(alert: SyncAlert): void {
    if (!this.options.enabled() || !Notification.isSupported()) return;
    const notification = new Notification(syncAlertText(alert));
    const forget = () => this.held.delete(notification);
    notification.on('click', () => {
      forget();
      this.options.open(alert);
    });
    notification.on('close', forget);
    this.held.add(notification);
    if (this.held.size > notificationsHeld) this.held.delete(this.held.values().next().value!);
    notification.show();
  }
}
