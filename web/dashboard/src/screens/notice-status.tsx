import { route } from '../router';
import { Link } from '../ui';

const statusLabels = { DRAFT: 'Draft', PUBLISHED: 'Published', ARCHIVED: 'Archived' } as const;
const statusClasses = { DRAFT: 'partial', PUBLISHED: 'active', ARCHIVED: 'stale' } as const;

export const StatusBadge = ({ status }: { status: keyof typeof statusLabels }) => (
  <span class={`badge ${statusClasses[status]}`}>{statusLabels[status]}</span>
);

/** The notice's sub-pages, named with the notice so each link says where it leads. */
export const NoticeTabs = ({ id }: { id: string }) => (
  <nav aria-label="Notice" class="tabs">
    {[
      [`/notices/${id}`, 'Notice'],
      [`/notices/${id}/translations`, 'Translations'],
      [`/notices/${id}/versions`, 'Versions'],
      ['/notices', 'All notices'],
    ].map(([to, label]) => (
      <Link key={to} to={to!} current={route.value === to}>
        {label}
      </Link>
    ))}
  </nav>
);
