import PaperClipOutlined from '@ant-design/icons/PaperClipOutlined';
import {
  ATTACHMENT_RULE,
  ATTACHMENT_TYPES,
  attachmentEndpoints,
  attachmentFileProblem,
  attachmentUploadQuerySchema,
  type Attachment,
  type AttachmentDefinition,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Popconfirm, Space, Table, Typography, Upload } from 'antd';
import { useMemo, useRef, useState } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf, showApiError } from '../shell/api-errors';
import { callEndpoint } from '../shell/http-client';
import { notify } from '../shell/notify';
import { useCan } from '../shell/use-can';
import { when } from './format';
import { startDownload } from './resource-queries';

const ACCEPT = ATTACHMENT_TYPES.flatMap((type) => type.extensions.map((e) => `.${e}`)).join(',');
const LABELS = new Map<string, string>(
  ATTACHMENT_TYPES.map((type) => [type.contentType, type.label]),
);

/**
 * What is wrong with a file before it is sent, or null: its name by the upload's own query schema
 * (as the server checks it, under `fileName`), then its type and size.
 */
export function fileProblem(file: { name: string; size: number }): string | null {
  const named = z.safeParse(attachmentUploadQuerySchema, { fileName: file.name });
  if (!named.success) return named.error.issues[0]?.message ?? 'The file name is not valid.';
  return attachmentFileProblem(file.name, file.size);
}

/** A file's size as people read it: "820 bytes", "14 KB", "3.2 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The files of one record and the changes to them; they sit under the record kind's list key.
 * `onChanged` follows each upload and removal (a retailer's certificate status reads its files).
 */
function useAttachments(
  definition: AttachmentDefinition,
  recordId: number,
  onChanged?: () => unknown,
) {
  const endpoints = useMemo(() => attachmentEndpoints(definition), [definition]);
  const client = useQueryClient();
  const queryKey = [definition.path, 'attachments', recordId];
  const params = { id: recordId };
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey }), onChanged?.()]);
  return {
    list: useQuery({
      queryKey,
      queryFn: async () => (await callEndpoint(endpoints.list, { params })).data,
    }),
    upload: useMutation({
      mutationFn: (file: File) =>
        callEndpoint(endpoints.upload, { params, query: { fileName: file.name }, file }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (attachmentId: number) =>
        callEndpoint(endpoints.remove, { params: { ...params, attachmentId } }),
      onSuccess: refresh,
    }),
    download: async (attachmentId: number) =>
      startDownload(
        (await callEndpoint(endpoints.download, { params: { ...params, attachmentId } })).data,
      ),
  };
}

/**
 * The files attached to a record (an invoice's PDF, damage photos): listed and downloaded by those
 * who see the record, attached and removed by those who may change it. The contract's rule on type
 * and size is shown and checked before a file is sent; the server checks the content itself.
 */
export function AttachmentsPanel({
  definition,
  recordId,
  onChanged,
}: {
  definition: AttachmentDefinition;
  recordId: number;
  /** What else to refresh when a file is attached or removed. */
  onChanged?: () => unknown;
}) {
  const attachments = useAttachments(definition, recordId, onChanged);
  const canManage = useCan(definition.manage);
  const [refusals, setRefusals] = useState<readonly string[]>([]);
  // Files chosen together are sent one at a time, in order: each holds the server's memory.
  const sending = useRef<Promise<void>>(Promise.resolve());
  const refuse = (file: File, problem: string) =>
    setRefusals((current) => [...current, `${file.name}: ${problem}`]);

  const send = async (file: File) => {
    const problem = fileProblem(file);
    if (problem) {
      refuse(file, problem);
      return;
    }
    try {
      notify.success((await attachments.upload.mutateAsync(file)).message);
    } catch (error) {
      // Said beside the button, where the user looks for the file: a wrong content or name, a repeat.
      const fields = fieldErrorsOf(error);
      refuse(file, fields?.file?.[0] ?? fields?.fileName?.[0] ?? (error as Error).message);
    }
  };

  const remove = async (attachment: Attachment) => {
    try {
      notify.success((await attachments.remove.mutateAsync(attachment.id)).message);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        Attachments
      </Typography.Title>
      <Space wrap>
        {canManage && (
          <Upload
            accept={ACCEPT}
            showUploadList={false}
            multiple
            disabled={attachments.upload.isPending}
            beforeUpload={(file, chosen) => {
              // A new choice of files starts without the refusals of the last.
              if (file === chosen[0]) setRefusals([]);
              sending.current = sending.current.then(() => send(file));
              return false;
            }}
          >
            <Button icon={<PaperClipOutlined />} loading={attachments.upload.isPending}>
              Attach a file
            </Button>
          </Upload>
        )}
        <Typography.Text type="secondary">{ATTACHMENT_RULE}</Typography.Text>
      </Space>
      {refusals.length > 0 && (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: () => setRefusals([]) }}
          title={
            refusals.length === 1 ? refusals[0] : `${refusals.length} files were not attached:`
          }
          description={
            refusals.length > 1 && (
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {refusals.map((refusal, order) => (
                  // The same file may be chosen twice: its place in the list tells them apart.
                  <li key={order}>{refusal}</li>
                ))}
              </ul>
            )
          }
          data-testid="attachment-refusal"
        />
      )}
      {attachments.list.isError && (
        <Alert
          type="error"
          showIcon
          title="The attachments could not be loaded."
          description={attachments.list.error.message}
        />
      )}
      <Table<Attachment>
        size="small"
        rowKey="id"
        aria-label="Attachments"
        loading={attachments.list.isPending}
        dataSource={attachments.list.data}
        pagination={false}
        locale={{ emptyText: 'No files attached.' }}
        columns={[
          {
            key: 'file_name',
            title: 'File',
            render: (_, file) => (
              <Button
                type="link"
                style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
                onClick={() => void attachments.download(file.id).catch(showApiError)}
              >
                {file.file_name}
              </Button>
            ),
          },
          { key: 'type', title: 'Type', render: (_, file) => LABELS.get(file.content_type) },
          { key: 'size', title: 'Size', render: (_, file) => fileSize(file.size_bytes) },
          {
            key: 'uploaded',
            title: 'Attached',
            render: (_, file) =>
              `${when(file.uploaded_at)}${file.uploaded_by ? ` by ${file.uploaded_by}` : ''}`,
          },
          ...(canManage
            ? [
                {
                  key: 'remove',
                  title: 'Actions',
                  render: (_: unknown, file: Attachment) => (
                    <Popconfirm
                      title={`Remove ${file.file_name}?`}
                      description="The file is deleted; the audit log keeps its name."
                      okText="Remove"
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove(file)}
                    >
                      <Button size="small" danger aria-label={`Remove ${file.file_name}`}>
                        Remove
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );
}
