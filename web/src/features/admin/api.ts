import type { PaymentToRefund } from '@petreg/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

/** Payments the provider took that the portal did not apply: the administrator refunds them. */
export function usePaymentsToRefund() {
  return useQuery({
    queryKey: ['admin', 'payments-to-refund'],
    queryFn: ({ signal }) => api.get<PaymentToRefund[]>('admin/payments-to-refund', { signal }),
  });
}
