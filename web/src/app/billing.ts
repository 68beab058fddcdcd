import { messages } from '@petreg/contract';
import { api, firstError } from './api';
import { toast } from './toast';

/** Opens the card provider's billing dashboard in a new tab (spec 2.2 Subscription, 2.4 Manage Subscriptions). */
export async function openBillingDashboard(userId: number): Promise<void> {
  // The tab opens during the click so pop-up blockers allow it; its address follows the answer.
  const tab = window.open('', '_blank');
  try {
    const url = await api.get<string>(`utilities/stripe-dashboard?uid=${userId}`);
    if (!tab) {
      window.location.assign(url);
      return;
    }
    tab.opener = null;
    tab.location.href = url;
  } catch (error) {
    tab?.close();
    toast(firstError(error, messages.genericError), { variant: 'error' });
  }
}
