import { Modal, Typography } from 'antd';
import { useDialogFocus } from '../../../shell/dialog-focus';

/** Shows a temporary password once, for the administrator to hand over. */
export function TemporaryPasswordModal({
  userName,
  password,
  onClose,
}: {
  userName: string;
  password: string;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  return (
    <Modal
      {...dialogFocus}
      open
      title="Temporary password"
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      <p>
        Give this password to <strong>{userName}</strong>. It is shown only now; at the first
        sign-in they must choose their own.
      </p>
      <Typography.Paragraph copyable={{ text: password }} code style={{ fontSize: 18 }}>
        {password}
      </Typography.Paragraph>
    </Modal>
  );
}
