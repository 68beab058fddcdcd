import type { PaymentToRefund } from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

const paymentsToRefundKey = ['admin', 'payments-to-refund'] as const;

/** Payments the provider took that the portal did not apply: the administrator refunds them. */
export function usePaymentsToRefund() {
  return useQuery({
    queryKey: paymentsToRefundKey,
    queryFn: ({ signal }) => api.get<PaymentToRefund[]>('admin/payments-to-refund', { signal }),
  });
}

/** Records that a payment was refunded at the card provider; it leaves the list. */
export function useMarkRefunded() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentId: number) => api.post<{ id: number }>(`admin/payments-to-refund/${paymentId}/refunded`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: paymentsToRefundKey }),
  });
}
